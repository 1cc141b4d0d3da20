H='apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: y }
spec:'
t() { printf '%s\n' "$1" > .tmp/t/y.yaml; node dist/cli/bin.js validate .tmp/t/y.yaml 2>&1 | head -4; echo "exit ${PIPESTATUS[0]}"; }
t "%YAML 1.1
---
$H
  seed: 1"
t "$H
  seed: !!binary aGVsbG8="
t "$H
  x-kss: { a: !!set { x, y } }"
t "$H
  x-kss: { a: !foo bar }"
t "$H
  x-kss: { [a, b]: 1 }"
t "$H
  seed: 1
---
a: 1"
t "$H
  x-kss: { a: $(printf '[%.0s' $(seq 1 3000))$(printf ']%.0s' $(seq 1 3000)) }"
t "$H
  timeline:
    - { at: 700s, partition: {} }
  expect:
    - apiserver: { pod: x, at: 11m }"
t "$H
  until: 0.4ms"
t "$H
  until: $(printf '9%.0s' $(seq 1 400))s"
