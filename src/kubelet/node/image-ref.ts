// How containerd names a container's image in the CRI (docker/reference ParseNormalizedNamed +
// TagNameOnly for Image.Image; the repo digest for ImageRef, the status's imageID), and the node's
// and pods' IPs the simulated network hands out.
import { createHash } from 'node:crypto';

/** ParseNormalizedNamed + TagNameOnly: "nginx" → "docker.io/library/nginx:latest",
 *  "me/app" → "docker.io/me/app:latest", "quay.io/a/b" → "quay.io/a/b:latest"; a digest stays. */
export function normalizeImageRef(image: string): string {
  if (image === '') return image;
  let name = image;
  let digest = '';
  const at = name.indexOf('@');
  if (at >= 0) {
    digest = name.slice(at);
    name = name.slice(0, at);
  }
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  let domain = 'docker.io';
  let rest = name;
  if (slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    domain = first;
    rest = name.slice(slash + 1);
  }
  if (domain === 'docker.io' && !rest.includes('/')) rest = `library/${rest}`;
  const last = rest.slice(rest.lastIndexOf('/') + 1);
  const tagged = last.includes(':');
  return `${domain}/${rest}${digest === '' && !tagged ? ':latest' : ''}${digest}`;
}

/** The image's repo digest as the runtime reports it (imageID): "<repo>@sha256:<hex>", the digest a
 *  function of the normalized reference (the same image gets the same ID on every run). */
export function imageRefOf(normalized: string): string {
  if (normalized === '') return '';
  const at = normalized.indexOf('@');
  if (at >= 0) return normalized;
  const lastSlash = normalized.lastIndexOf('/');
  const colon = normalized.indexOf(':', lastSlash + 1);
  const repo = colon >= 0 ? normalized.slice(0, colon) : normalized;
  return `${repo}@sha256:${createHash('sha256').update(normalized).digest('hex')}`;
}

/** The node's InternalIP (the host IP of every pod of this node). */
export const NODE_IP = '192.168.0.10';

/** The IP of the n-th pod sandbox the runtime creates (n from 0): 10.244.0.2, .3, … (a /16 beyond
 *  253 sandboxes). */
export function podIPOf(n: number): string {
  const k = n + 2;
  return `10.244.${Math.floor(k / 254)}.${(k % 254) + (k >= 254 ? 1 : 0)}`;
}
