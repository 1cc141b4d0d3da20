// Kubernetes strategic merge patch for the parts of a Pod that kss writes (metadata and status),
// ported from k8s.io/apimachinery/pkg/util/strategicpatch/patch.go:
//   createTwoWayMergePatch     ~ CreateTwoWayMergeMapPatch (client side: diffMaps / diffLists)
//   applyStrategicMergePatch   ~ StrategicMergeMapPatch    (server side: mergeMap / mergeSlice)
//
// Values are plain JSON-like data (as Go sees them after json.Unmarshal into map[string]any):
// `undefined` and `null` both mean "absent" (Go's omitempty never writes them), every other value
// is compared exactly (false, 0 and "" are values). Upstream reads patch strategies from Go struct
// tags; here a small PatchMeta tree says which lists are merged by which key.
//
// Patch objects are built with their keys in sorted order, as Go's encoding/json writes map keys,
// so JSON.stringify of a patch reads like the kubelet's log line.
//
// Not ported: merge lists of scalars (`$deleteFromPrimitiveList` is honoured on apply, never
// generated), `patchStrategy: replace` maps, three-way patches. Nothing in a Pod's status needs them.
//
// The port, by upstream's parts: strategic-merge-base.ts (patch metadata, directives, Go's
// DeepEqual), strategic-merge-diff.ts (the two-way diff), strategic-merge-apply.ts (the apply),
// strategic-merge-order.ts (the order of merged lists). This module is their public face.
export {
  jsonEqual,
  POD_PATCH_META,
  POD_PATCH_META_MERGE_CONTAINER_STATUSES,
  StrategicMergeError,
  type FieldMeta,
  type PatchMeta,
} from './strategic-merge-base.js';
export { createTwoWayMergePatch } from './strategic-merge-diff.js';
export { applyStrategicMergePatch } from './strategic-merge-apply.js';
