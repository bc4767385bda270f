// The engine's options as JavaScript sees them: camelCase names (beamSize; the alignment options
// nested in `alignment`), parsed from the JSON text the TypeScript wrapper sends
// (bindings/src/search.ts, engineOptionsJson), and the option table exported for the wrapper,
// the CLI and tools/internals/options-table.js. cpp/options.h holds the options themselves, in C++ terms.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "error.h"
#include "options.h"

namespace crossattn {

/// The JavaScript name of an option's neutral name: "beam_size" -> "beamSize".
std::string js_name(const std::string& name);

/// How a message to JavaScript names an option: its js_name, "alignment." + it for the
/// alignment options ("alignment.threshold"). An OptionNamer (error.h).
std::string js_option_name(const std::string& name);

/// TranslateOptions from a JSON object keyed by JavaScript names: {"beamSize": 4, "alignment":
/// {"layers": [-1], "method": "argmax"}}. Absent keys keep their defaults; "alignment" absent,
/// null or false means no alignment, true or an object (even {}) asks for one; "targetPrefix", an
/// array of strings or null, sets target_prefix; unknown keys are ignored. Raises
/// Error(OptionFault) for the first bad value (value: its JSON text), Error(kInvalidInput) for a
/// value that is no object where one belongs.
TranslateOptions options_from_json(const nlohmann::json& object);

/// The alignment options of a JSON object {method?, threshold?, ...} (AlignmentOptions' defaults
/// for absent keys); errors as options_from_json.
AlignmentOptions alignment_options_from_json(const nlohmann::json& object);

/// The table as JSON, for JavaScript: [{name, jsName, flag, group, type, min?, max?, minExclusive,
/// choices?, range, rule, doc, flagDoc, default}], the defaults read from TranslateOptions{} and
/// AlignmentOptions{}, `flag` the npm CLI's (beam-size), `doc` naming options by js_name and
/// `flagDoc` by flag (--beam-size).
nlohmann::json option_specs_json();

/// {option, value, limit, other?, note?} of a fault, its options named by js_name.
nlohmann::json fault_json(const OptionFault& fault);

}  // namespace crossattn
