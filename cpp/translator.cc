#include "translator.h"

#include <algorithm>
#include <cmath>

#include "decoding/beam_search.h"
#include "decoding/confidence.h"
#include "decoding/word_repeat_guard.h"
#include "error.h"
#include "kernels/ops.h"
#include "model/model_file.h"
#include "model/transformer.h"
#include "tokenizer/tokenizer.h"

namespace crossattn {

namespace {

// WordPieces of one side's vocabulary, read from views of the tokenizer's pieces.
std::shared_ptr<const WordPieces> word_pieces(const Tokenizer& tokenizer, Side side) {
  std::vector<std::string_view> pieces(tokenizer.vocab_size(side));
  for (size_t id = 0; id < pieces.size(); ++id) pieces[id] = tokenizer.piece(static_cast<int>(id), side);
  return std::make_shared<const WordPieces>(pieces);
}

}  // namespace

Translator::Translator(std::shared_ptr<const Transformer> model, std::shared_ptr<const Tokenizer> tokenizer)
    : model_(std::move(model)), tokenizer_(std::move(tokenizer)),
      source_words_(word_pieces(*tokenizer_, Side::kSource)), target_words_(word_pieces(*tokenizer_, Side::kTarget)) {}
Translator::Translator(Translator&&) noexcept = default;
Translator& Translator::operator=(Translator&&) noexcept = default;
Translator::~Translator() = default;

Translator Translator::from_bytes(const uint8_t* data, size_t size) { return from_owned_bytes(copy_file_bytes(data, size), size); }

Translator Translator::from_bytes(const FileBytes& bytes, size_t size) { return from_model_file(ModelFile::parse(bytes, size)); }

Translator Translator::from_owned_bytes(OwnedFileBytes bytes, size_t size) {
  return from_model_file(ModelFile::parse_owned(std::move(bytes), size));
}

Translator Translator::from_model_file(ModelFile file) {
  const bool source_reads_vocab = file.source_vocab.empty() && !file.vocab.empty();
  auto tokenizer = std::make_shared<const Tokenizer>(file.source_spm, file.target_spm, std::move(file.vocab),
                                                     file.config.unk_id, std::move(file.source_vocab),
                                                     file.config.source_unk_id);
  if (tokenizer->vocab_size() != file.config.vocab_size) {
    fail_model_format("the SentencePiece model has " + std::to_string(tokenizer->vocab_size()) +
                      " pieces, the config says " + std::to_string(file.config.vocab_size));
  }
  // A source_vocab's length was checked by ModelFile::parse; the other two numberings are checked here.
  if (tokenizer->vocab_size(Side::kSource) != file.config.source_vocab_size) {
    fail_model_format(std::string(source_reads_vocab ? "the source side reads metadata 'vocab'" : "the source SentencePiece model") +
                      ", which has " + std::to_string(tokenizer->vocab_size(Side::kSource)) +
                      " pieces, but the config's source_vocab_size says " + std::to_string(file.config.source_vocab_size));
  }
  auto model = std::make_shared<const Transformer>(std::move(file.config), std::move(file.weights));
  return Translator(std::move(model), std::move(tokenizer));
}

Translator Translator::from_file(const std::string& path) {
  ModelFileBytes file = read_model_file(path);  // the file's type and size first (model/model_file.h)
  return from_owned_bytes(std::move(file.bytes), file.size);
}

const ModelConfig& Translator::config() const { return model_->config(); }

bool Translator::has_alignment_layer() const { return model_->has_alignment_layer(); }

int Translator::source_length(const std::string& text) const {
  const size_t pieces = tokenizer_->encode(text, Side::kSource).pieces.size();
  return pieces == 0 ? 0 : static_cast<int>(pieces) + 1;  // + eos, as prepare() below appends it
}

Translation Translator::translate(const std::string& text, const TranslateOptions& options) const {
  return std::move(translate_batch({text}, options).front());
}

namespace {

// The source side of a translation: tokens and ids with eos appended, checked against the model.
Translation prepare(const Tokenizer& tokenizer, const ModelConfig& c, const std::string& text) {
  Translation result;
  result.layers = c.decoder_layers;
  result.heads = c.n_heads;
  Encoding source = tokenizer.encode(text, Side::kSource);
  if (source.pieces.empty()) return result;  // empty or whitespace-only text
  result.source_ids = tokenizer.to_ids(source.pieces, Side::kSource);
  result.source_tokens = std::move(source.pieces);
  result.source_words = std::move(source.words);
  result.source_word_of_token = std::move(source.word_of_piece);
  result.source_tokens.push_back(tokenizer.piece(c.source_eos_id, Side::kSource));
  result.source_ids.push_back(c.source_eos_id);
  result.source_word_of_token.push_back(-1);
  if (static_cast<int>(result.source_ids.size()) > c.max_positions) {
    throw Error(ErrorCode::kInputTooLong, "the text has " + std::to_string(result.source_ids.size()) +
                                              " tokens; this model takes at most " +
                                              std::to_string(c.max_positions) + " (split it into sentences)");
  }
  return result;
}

// The work budget of one call, checked before any decoding (docs/api.md, "Limits"): the decoder
// row-steps of one sentence, beam_size x its maximum target length (beam 8 over 512 tokens takes
// about 5 s in wasm on 2 cores), and the cross-attention kept for the probes of the whole call.
constexpr long long kMaxBeamSteps = 4096;
constexpr long long kMaxAttentionBytes = 256ll << 20;

bool special(const ModelConfig& c, int id) { return id == c.eos_id || id == c.bos_id || id == c.pad_id; }

// The sentence and word confidence of a finished translation from its token log-probabilities.
void add_confidence(Translation& r) {
  Confidence c = confidence(r.token_log_probs, r.target_word_of_token, static_cast<int>(r.target_words.size()));
  r.confidence = c.sentence;
  r.word_confidence = std::move(c.words);
}

// Whether the word alignment of `o` reads the model's alignment layer: options naming no layer,
// no head and no Shift-Att, on a model that has one (add_alignment).
bool reads_alignment_layer(const Transformer& model, const TranslateOptions& o) {
  return o.alignment && o.alignment->layers.empty() && o.alignment->heads.empty() && !o.alignment->shift &&
         model.has_alignment_layer();
}

// What a search keeps of each best hypothesis for `o`: the cross-attention when the caller asks for
// it or the alignment reads it, else the final states when the alignment layer reads them.
SearchProbes search_probes(const Transformer& model, const TranslateOptions& o) {
  const bool layer = reads_alignment_layer(model, o);
  return {o.attention || (o.alignment.has_value() && !layer), o.residual, layer};
}

// What a pass over a translation's target already computed: encoder_out [S, D] and the decoder's
// final states [T, D], from the search that chose it or from a forced pass. The alignment layer
// needs them; without them, layer_alignment computes them again.
struct ForcedPass {
  const Matrix* encoder_out = nullptr;
  const std::vector<float>* final_states = nullptr;
};

// The alignment layer's weights [T, S] of r's target over its source (layers/alignment_layer.h), from
// a forced decoder pass over r.target_ids unless `forced` holds one.
std::vector<float> layer_alignment(const Transformer& model, const Translation& r, const ForcedPass& forced) {
  if (forced.encoder_out != nullptr && forced.final_states != nullptr && !forced.final_states->empty()) {
    return model.alignment_weights(*forced.encoder_out, r.target_ids, forced.final_states->data());
  }
  const ModelConfig& c = model.config();
  const Matrix encoder_out = model.encode(r.source_ids);  // [S, D]
  std::vector<int> inputs = {c.decoder_start_id};         // row t predicts target_ids[t]
  inputs.insert(inputs.end(), r.target_ids.begin(), r.target_ids.end() - 1);
  DecoderState state = model.start(encoder_out, static_cast<int>(inputs.size()));
  Matrix logits;
  std::vector<float> states(inputs.size() * static_cast<size_t>(c.d_model));  // [T, D]
  model.decode(state, inputs, logits, nullptr, nullptr, states.data());
  return model.alignment_weights(encoder_out, r.target_ids, states.data());
}

// Word alignments of a finished translation, when requested; drops the attention if only the
// alignment needed it. Options naming no layer and no head (and no Shift-Att) read the model's
// alignment layer when it has one, else its trained alignment head when it has one; the model's
// alignment lexicon weighs the attention when it has one, unless the options turn it off.
// `forced` saves the layer a second forced pass when the caller made one (align()).
void add_alignment(const Transformer& model, const TranslateOptions& options, Translation& r,
                   const ForcedPass& forced = {}) {
  const ModelConfig& c = model.config();
  if (!options.alignment || r.target_ids.empty()) return;
  AlignmentOptions chosen = *options.alignment;
  const bool defaults = chosen.layers.empty() && chosen.heads.empty();
  const int t_len = static_cast<int>(r.target_ids.size()), s_len = static_cast<int>(r.source_ids.size());
  std::vector<float> layer_weights;  // [1, 1, T, S] when the alignment layer is read
  if (reads_alignment_layer(model, options)) {
    layer_weights = layer_alignment(model, r, forced);
    chosen.layers = {0};
    chosen.heads = {0};
  } else if (defaults && c.alignment_head >= 0) {
    chosen.layers = {c.alignment_layer};
    chosen.heads = {c.alignment_head};
  }
  const CrossAttentionView view = layer_weights.empty()
                                      ? CrossAttentionView{r.cross_attention.data(), r.layers, r.heads, t_len, s_len}
                                      : CrossAttentionView{layer_weights.data(), 1, 1, t_len, s_len};
  const AlignmentLexicon& lexicon = model.alignment_lexicon();
  const std::vector<float> prior = chosen.lexicon && !lexicon.empty() ? lexicon.prior(r.source_ids, r.target_ids)
                                                                      : std::vector<float>{};
  r.alignment = align_words(view, {r.source_word_of_token, static_cast<int>(r.source_words.size())},
                            {r.target_word_of_token, static_cast<int>(r.target_words.size())}, chosen,
                            prior.empty() ? nullptr : &prior);
  if (!options.attention) r.cross_attention.clear();
}

// The text of target ids; appends their pieces to *pieces and the non-special ones to *text_pieces.
std::string detokenize(const Tokenizer& tokenizer, const ModelConfig& c, const std::vector<int>& ids,
                       std::vector<std::string>* pieces, std::vector<std::string>* text_pieces) {
  for (int id : ids) {
    pieces->push_back(tokenizer.piece(id));
    if (!special(c, id)) text_pieces->push_back(pieces->back());
  }
  return tokenizer.decode_pieces(*text_pieces);
}

// A hypothesis with its pieces and text; its non-special pieces go to *text_pieces.
ScoredHypothesis describe(const Tokenizer& tokenizer, const ModelConfig& c, const Hypothesis& hyp,
                          std::vector<std::string>* text_pieces) {
  ScoredHypothesis out;
  out.target_ids = hyp.ids;
  out.token_log_probs = hyp.token_log_probs;
  out.log_prob = hyp.log_prob;
  out.score = hyp.score;
  out.text = detokenize(tokenizer, c, hyp.ids, &out.target_tokens, text_pieces);
  return out;
}

// Fills the target side of `result` from the n-best hypotheses of its text, best first.
void finish_translation(const Tokenizer& tokenizer, const ModelConfig& c, std::vector<Hypothesis> hyps, Translation& result) {
  std::vector<std::string> text_pieces, pieces;  // of the best hypothesis, of each
  for (const Hypothesis& hyp : hyps) {
    pieces.clear();
    result.hypotheses.push_back(describe(tokenizer, c, hyp, &pieces));
    if (result.hypotheses.size() == 1) text_pieces = pieces;
  }
  static_cast<ScoredHypothesis&>(result) = result.hypotheses.front();  // the translation is its best hypothesis
  result.cross_attention = std::move(hyps.front().cross_attention);
  result.residual = std::move(hyps.front().residual);
  result.target_words = split_words(result.text);
  const std::vector<int> words = words_of_pieces(text_pieces, static_cast<int>(result.target_words.size()));
  for (size_t t = 0, k = 0; t < result.target_ids.size(); ++t) {
    result.target_word_of_token.push_back(special(c, result.target_ids[t]) ? -1 : words[k++]);
  }
  add_confidence(result);
}

// Refuses, before any work, a call whose decoding would exceed the work budget.
// `attention`: whether the search keeps the cross-attention (search_probes).
void check_budget(const ModelConfig& c, const TranslateOptions& o, bool attention, const std::vector<int>& src_lens,
                  const std::vector<int>& max_lengths) {
  long long attention_bytes = 0;
  for (size_t i = 0; i < src_lens.size(); ++i) {
    const long long steps = static_cast<long long>(o.beam_size) * max_lengths[i];
    if (steps > kMaxBeamSteps) {
      const std::string tokens = std::to_string(max_lengths[i]);
      throw Error(OptionFault{"beam_size", std::to_string(o.beam_size),
                              "at most " + std::to_string(kMaxBeamSteps / max_lengths[i]) + " with up to " + tokens +
                                  " target tokens",
                              "", std::to_string(o.beam_size) + " x " + tokens + " = " + std::to_string(steps) +
                                  " decoder steps for one sentence; the limit is " + std::to_string(kMaxBeamSteps) +
                                  ": lower the beam or the length limit"});
    }
    if (attention) attention_bytes += steps * c.decoder_layers * c.n_heads * src_lens[i] * static_cast<long long>(sizeof(float));
  }
  if (attention_bytes > kMaxAttentionBytes) {
    throw Error(OptionFault{"attention", "true", "false for this call", "",
                            "keeping the cross-attention of this call would take " + std::to_string(attention_bytes >> 20) +
                                " MiB; the limit is " + std::to_string(kMaxAttentionBytes >> 20) +
                                " MiB; or translate fewer or shorter sentences at once, with a smaller beam"});
  }
}

// floor(ratio * S + offset), at least 1 and at most the cap; with a forced prefix of P tokens, at
// least P + 1 (the prefix and eos).
int max_target_length(const ModelConfig& c, const TranslateOptions& o, int src_len, int prefix_len) {
  const int cap = o.max_length ? o.max_length : c.max_positions;
  const double limit = std::floor(static_cast<double>(o.max_length_ratio) * src_len + o.max_length_offset);
  return std::max(prefix_len + 1, static_cast<int>(std::max(1.0, std::min<double>(cap, limit))));
}

// The forced target prefix of each text [texts][P_i] (TranslateOptions::target_prefix): its target
// pieces' ids. Raises Error(kInvalidInput) when the prefixes do not match the texts one to one,
// Error(kInputTooLong) for a prefix of max_positions tokens or more (no room for eos).
std::vector<std::vector<int>> prefix_ids(const Tokenizer& tokenizer, const ModelConfig& c, const TranslateOptions& o,
                                         size_t texts) {
  std::vector<std::vector<int>> out(texts);
  if (o.target_prefix.empty()) return out;
  if (o.target_prefix.size() != texts) {
    throw Error(OptionFault{"target_prefix", std::to_string(o.target_prefix.size()) + " prefixes",
                            std::to_string(texts) + " prefixes, one per text", "", ""});
  }
  for (size_t i = 0; i < texts; ++i) {
    out[i] = tokenizer.to_ids(tokenizer.encode(o.target_prefix[i], Side::kTarget).pieces);
    if (static_cast<int>(out[i].size()) + 1 > c.max_positions) {
      throw Error(ErrorCode::kInputTooLong, "the target prefix of text " + std::to_string(i) + " has " +
                                                std::to_string(out[i].size()) + " tokens; this model takes at most " +
                                                std::to_string(c.max_positions - 1));
    }
  }
  return out;
}

// The lexical shortlist of a call: each decoded text's own candidates [texts][n_i] (its source's
// shortlist with its forced prefix's tokens added: a forced token must be scorable; CTranslate2 adds
// them too, src/vocabulary_map.cc:53-75 get_candidates), and the output layer over their union,
// which a batch's decoder step scores once and BeamSearch narrows to each text's own candidates, so
// that a batch translates each text as it would alone.
struct CallShortlist {
  std::shared_ptr<const OutputShortlist> output;
  std::vector<std::vector<int>> candidates;
};

CallShortlist call_shortlist(const Transformer& model, const std::vector<const std::vector<int>*>& sources,
                             const std::vector<std::vector<int>>& prefixes) {
  OutputShortlist s = model.shortlist(sources);  // checks the source ids; the union of the texts' tables
  CallShortlist out;
  std::vector<int> all = s.ids;
  for (size_t i = 0; i < sources.size(); ++i) {
    std::vector<int> ids = model.weights().lexical_shortlist.candidates({sources[i]}, model.config().eos_id);
    ids.insert(ids.end(), prefixes[i].begin(), prefixes[i].end());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    all.insert(all.end(), prefixes[i].begin(), prefixes[i].end());
    out.candidates.push_back(std::move(ids));
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  if (all.size() != s.ids.size()) {
    s.projection = model.weights().output_projection.select_rows(all);
    s.ids = std::move(all);
  }
  out.output = std::make_shared<const OutputShortlist>(std::move(s));
  return out;
}

}  // namespace

struct TranslationJob::State {
  std::shared_ptr<const Transformer> model;
  std::shared_ptr<const Tokenizer> tokenizer;
  TranslateOptions options;
  std::vector<Translation> results;  // [texts], source side filled
  std::vector<Matrix> encoder_outs;  // [S_k, D] per decoded text
  std::vector<size_t> decoded;       // index into results of each decoded text
  std::vector<size_t> emitted;       // settled tokens already reported, per decoded text
  std::vector<char> complete;        // per decoded text: stopped and fully reported
  std::unique_ptr<BeamSearch> search;
  bool finished = false;
};

TranslationJob::TranslationJob(std::unique_ptr<State> state) : state_(std::move(state)) {}
TranslationJob::TranslationJob(TranslationJob&&) noexcept = default;
TranslationJob& TranslationJob::operator=(TranslationJob&&) noexcept = default;
TranslationJob::~TranslationJob() = default;

bool TranslationJob::done() const { return state_->search->done(); }

std::vector<TokenEvent> TranslationJob::step() {
  State& st = *state_;
  if (st.finished) throw Error(ErrorCode::kInvalidInput, "this translation job has finished");
  std::vector<TokenEvent> events;
  if (done()) return events;
  st.search->step();
  const ModelConfig& c = st.model->config();
  for (size_t k = 0; k < st.decoded.size(); ++k) {
    if (st.complete[k]) continue;
    st.complete[k] = st.search->stopped(static_cast<int>(k));  // reported in full below
    const std::vector<int> ids = st.search->settled(static_cast<int>(k));
    if (ids.size() <= st.emitted[k]) continue;
    TokenEvent e;
    e.index = static_cast<int>(st.decoded[k]);
    std::vector<std::string> pieces, text_pieces;
    e.text = detokenize(*st.tokenizer, c, ids, &pieces, &text_pieces);
    e.tokens.assign(pieces.begin() + static_cast<std::ptrdiff_t>(st.emitted[k]), pieces.end());
    st.emitted[k] = ids.size();
    events.push_back(std::move(e));
  }
  return events;
}

std::vector<Translation> TranslationJob::finish() {
  State& st = *state_;
  if (st.finished || !done()) throw Error(ErrorCode::kInvalidInput, "finish() needs a job that is done and unfinished");
  st.finished = true;
  std::vector<std::vector<Hypothesis>> hyps = st.search->finish();
  for (size_t k = 0; k < st.decoded.size(); ++k) {
    Translation& r = st.results[st.decoded[k]];
    // The search's own states of the best hypothesis: the alignment layer needs no forced pass.
    const std::vector<float> final_states = hyps[k].empty() ? std::vector<float>{} : std::move(hyps[k].front().final_states);
    finish_translation(*st.tokenizer, st.model->config(), std::move(hyps[k]), r);
    add_alignment(*st.model, st.options, r, {&st.encoder_outs[k], &final_states});
  }
  return std::move(st.results);
}

TranslationJob Translator::start(const std::vector<std::string>& texts, const TranslateOptions& options) const {
  const ModelConfig& c = model_->config();
  check_options(options, c);
  auto st = std::make_unique<TranslationJob::State>();
  st->model = model_;
  st->tokenizer = tokenizer_;
  st->options = options;
  st->options.on_token = nullptr;
  st->results.reserve(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    try {
      st->results.push_back(prepare(*tokenizer_, c, texts[i]));
    } catch (const Error& e) {
      if (texts.size() == 1) throw;
      throw Error(e.code(), "text " + std::to_string(i) + ": " + e.what());
    }
  }
  std::vector<std::vector<int>> all_prefixes = prefix_ids(*tokenizer_, c, options, texts.size()), prefixes;
  std::vector<int> max_lengths, src_lens;
  for (size_t i = 0; i < st->results.size(); ++i) {
    const std::vector<int>& src_ids = st->results[i].source_ids;
    if (src_ids.empty()) continue;
    src_lens.push_back(static_cast<int>(src_ids.size()));
    max_lengths.push_back(max_target_length(c, options, src_lens.back(), static_cast<int>(all_prefixes[i].size())));
    prefixes.push_back(std::move(all_prefixes[i]));
    st->decoded.push_back(i);
  }
  const SearchProbes probes = search_probes(*model_, options);
  check_budget(c, options, probes.attention, src_lens, max_lengths);
  st->encoder_outs.reserve(st->decoded.size());
  for (size_t i : st->decoded) st->encoder_outs.push_back(model_->encode(st->results[i].source_ids));
  st->emitted.assign(st->decoded.size(), 0);
  st->complete.assign(st->decoded.size(), 0);
  std::vector<const Matrix*> inputs;
  for (const Matrix& m : st->encoder_outs) inputs.push_back(&m);
  CallShortlist shortlist;
  if (options.shortlist && model_->has_shortlist() && !st->decoded.empty()) {
    std::vector<const std::vector<int>*> sources;
    for (size_t i : st->decoded) sources.push_back(&st->results[i].source_ids);
    shortlist = call_shortlist(*model_, sources, prefixes);
  }
  // The word repeat guard, with the repetition guard, for each source that repeats no word.
  std::vector<std::shared_ptr<const TokenConstraint>> guards;
  for (size_t i : st->decoded) {
    const std::vector<int>& ids = st->results[i].source_ids;  // [S] pieces, then eos
    const bool guarded = options.repeat_limit > 0 && !repeats_word({ids.begin(), ids.end() - 1}, *source_words_);
    guards.push_back(guarded ? std::make_shared<WordRepeatGuard>(target_words_) : nullptr);
  }
  st->search = std::make_unique<BeamSearch>(*model_, std::move(inputs), std::move(max_lengths), options, probes,
                                            std::move(shortlist.output), std::move(prefixes),
                                            std::move(shortlist.candidates), std::move(guards));
  return TranslationJob(std::move(st));
}

std::vector<Translation> Translator::translate_batch(const std::vector<std::string>& texts,
                                                     const TranslateOptions& options) const {
  TranslationJob job = start(texts, options);
  while (!job.done()) {
    if (!options.on_token) {
      job.state_->search->step();
      continue;
    }
    for (const TokenEvent& e : job.step()) {
      if (!options.on_token(e)) throw Error(ErrorCode::kCancelled, "the translation was cancelled");
    }
  }
  return job.finish();
}

Translation Translator::align(const std::string& source, const std::string& target,
                              const TranslateOptions& options) const {
  const ModelConfig& c = model_->config();
  check_options(options, c);
  Translation r = prepare(*tokenizer_, c, source);
  if (r.source_ids.empty()) return r;
  Encoding tgt = tokenizer_->encode(target, Side::kTarget);
  if (static_cast<int>(tgt.pieces.size()) + 1 > c.max_positions) {
    throw Error(ErrorCode::kInputTooLong, "the target has " + std::to_string(tgt.pieces.size() + 1) +
                                              " tokens; this model takes at most " + std::to_string(c.max_positions));
  }
  r.text = target;
  r.target_ids = tokenizer_->to_ids(tgt.pieces);
  r.target_ids.push_back(c.eos_id);
  r.target_tokens = std::move(tgt.pieces);
  r.target_tokens.push_back(tokenizer_->piece(c.eos_id));
  r.target_words = std::move(tgt.words);
  r.target_word_of_token = std::move(tgt.word_of_piece);
  r.target_word_of_token.push_back(-1);
  // Decoder input: bos then the target; row t predicts target_ids[t], as in greedy decoding.
  std::vector<int> inputs = {c.decoder_start_id};
  inputs.insert(inputs.end(), r.target_ids.begin(), r.target_ids.end() - 1);
  const int t_len = static_cast<int>(inputs.size());
  const Matrix encoder_out = model_->encode(r.source_ids);  // [S, D]
  DecoderState state = model_->start(encoder_out, t_len);
  const bool attention = search_probes(*model_, options).attention;
  r.cross_attention.resize(attention ? static_cast<size_t>(r.layers) * r.heads * t_len * r.source_ids.size() : 0);
  r.residual.resize(options.residual ? static_cast<size_t>(r.layers) * t_len * 3 : 0);
  Matrix logits;  // [T, V]
  std::vector<float> final_states(reads_alignment_layer(*model_, options) ? t_len * static_cast<size_t>(c.d_model) : 0);
  model_->decode(state, inputs, logits, attention ? r.cross_attention.data() : nullptr,
                 options.residual ? r.residual.data() : nullptr, final_states.empty() ? nullptr : final_states.data());
  for (int t = 0; t < t_len; ++t) {
    r.token_log_probs.push_back(logits(t, r.target_ids[t]) - log_sum_exp(logits.row(t).data(), c.vocab_size));
    r.log_prob += r.token_log_probs.back();
  }
  add_confidence(r);
  add_alignment(*model_, options, r, {&encoder_out, &final_states});
  return r;
}

}  // namespace crossattn
