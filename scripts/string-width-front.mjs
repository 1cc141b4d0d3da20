// The front the bundle puts before each `string-width` (scripts/bundle.mjs, lazyStringWidth): a
// string of printable ASCII is as wide as it is long; anything else is measured by the real
// module at `real`, imported only then.
export function stringWidthFront(real) {
  return [
    'const printable = /^[\\u0020-\\u007E]*$/;',
    'let measure;',
    'export default function stringWidth(input, options) {',
    "  if (typeof input === 'string' && printable.test(input)) return input.length;",
    `  measure ??= require(${JSON.stringify(real)}).default;`,
    '  return measure(input, options);',
    '}',
    '',
  ].join('\n');
}
