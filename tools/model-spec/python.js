// The Python writer's tables of the model file, made from its spec (cpp/model/tensor_spec.json):
// models/model_spec_generated.py holds the config's fields, the conditions and dimensions, and the
// tensor groups, which models/tensor_spec.py checks a model file by before it is written.
// tools/model-spec/index.js writes it with the other generated files.
import { configFields, formatRows, literal } from './spec.js';

/** ModelTensors's members: "encoder.embed_tokens.weight" is ENCODER_EMBED_TOKENS_WEIGHT. */
function modelTensors(spec) {
  const names = spec.groups.filter((g) => g.scope === 'model' || g.scope === 'optional').flatMap((g) => g.tensors.map((t) => t.name));
  return names.map((n) => `    ${n.replace(/[.]/g, '_').toUpperCase()} = ${JSON.stringify(n)}`).join('\n');
}

/** models/model_spec_generated.py's text for a checked spec (spec.js readSpec). */
export function generatedPython(spec) {
  const data = (value) => literal(value, { python: true });
  const groups = spec.groups.map(({ about, ...group }) => ({ ...group, tensors: group.tensors.map(({ about: _, ...t }) => t) }));
  const dimensions = Object.fromEntries(Object.entries(spec.dimensions).map(([key, d]) => [key, d.field ?? null]));
  return `"""The model file's spec (cpp/model/tensor_spec.json) as Python tables, which tensor_spec.py checks a
model file by.

Made by tools/model-spec/index.js.
Do not edit: \`node tools/model-spec/index.js --write\` makes it anew; tests/js/model-spec-generated.test.js
fails when it differs from what the spec makes.
"""

# The config's fields, in the spec's order (a default or a bound names only a field before it): type
# (int, number, bool, string, enum), range [min, max], "below" (less than that field's value),
# "default" or "default_from" (another field's value; neither: required), an enum's "values".
CONFIG_FIELDS = ${data(configFields(spec))}

# The config a tensor is called for by: the field and the value it must have.
CONDITIONS = ${data(spec.conditions)}

# The config field a shape rule's letter reads; None: any length.
DIMENSIONS = ${data(dimensions)}

# The tensor groups, in the spec's order: scope, layer prefix, all or none, tensors (name, shape rules, kind, initial value, condition).
TENSOR_GROUPS = ${data(groups)}


class ModelTensors:
    """The names of the tensors a model has once (the spec's model and optional groups)."""

${modelTensors(spec)}


# Each foreign format's names for ours (tensor_spec.py their_name): a row maps a whole name, or every
# name under a prefix ending in "." (or empty); "{i}" is a layer index, "{i+1}" the same counted from
# 1; a row with a condition ("when") holds only under it; the first row that matches wins.
FORMAT_ROWS = ${data(formatRows(spec))}
`;
}
