// Plain data as YAML text, for people (`kss inspect`): the yaml package lives in scenario/ (the
// house rule), so the renderers above reach it through here.
import { stringify } from 'yaml';

export function toYamlText(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}
