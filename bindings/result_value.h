// The engine's results as JavaScript values, made from the field tables of cpp/translation.h: each
// field under its JavaScript name (camelCase of the C++ name), so that no field is listed here.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "translation.h"

namespace crossattn_bindings {

/// The JavaScript name of a C++ field or option name: beam_size -> beamSize.
std::string camel_case(const std::string& name);

/// {srcLen, tgtLen, weights: Float32Array [tgtLen * srcLen] or null, links: [[s, t], ...]}.
emscripten::val alignment_value(const crossattn::WordAlignment& a);

/// A Translation as JavaScript sees it: every field of translation_fields() by its camelCase name;
/// strings and string lists as they are, int lists as arrays, float lists as Float32Array copies
/// (null when empty), cross_attention flat [L * H * T * S] (bindings/src/engine-translation.ts
/// shapes it), alignment as alignment_value, hypotheses as objects of hypothesis_fields().
emscripten::val translation_value(const crossattn::Translation& r);

/// The field tables for tools/internals/result-types.js: {hypothesis: [...], translation: [...]}, each field
/// {name (C++), jsName, type ('string', 'string[]', 'int[]', 'float[]', 'float', 'int', 'hypotheses',
/// 'alignment'), shape, presence ('always', 'on request', 'shape'), doc, fromHypothesis}.
emscripten::val result_fields();

}  // namespace crossattn_bindings
