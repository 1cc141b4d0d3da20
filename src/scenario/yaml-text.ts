// YAML as plain data, for tools that write scenarios (kss explore's shrunk finds): the document's
// data (anchors expanded) and a stable rendering of data as a scenario file. The loader stays the
// only judge of what a file means; `yaml` keeps its one home in scenario/.
import { parse, stringify } from 'yaml';

/** The data of a YAML document (anchors and aliases expanded). */
export function yamlData(text: string): unknown {
  return parse(text, { maxAliasCount: 1000 });
}

/** Data as YAML text: block style, short lists of scalars in flow style, no aliases, stable. */
export function yamlText(data: unknown): string {
  return stringify(data, { aliasDuplicateObjects: false, lineWidth: 0, flowCollectionPadding: true });
}

/** Plain data as YAML text, for people (`kss inspect`). */
export function toYamlText(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}
