# SentencePiece's runtime (encoder/decoder, no trainer) as a static library for WebAssembly, compiled
# from Debian's source package (SENTENCEPIECE_SOURCE_DIR) with its bundled protobuf-lite. Debian's
# patches remove upstream's static target, so the sources are listed here (upstream src/CMakeLists.txt).
set(SPM ${SENTENCEPIECE_SOURCE_DIR})
file(READ ${SPM}/VERSION.txt SPM_VERSION)
string(STRIP "${SPM_VERSION}" SPM_VERSION)
set(SPM_GENERATED ${CMAKE_BINARY_DIR}/sentencepiece_generated)
# file(CONFIGURE) writes config.h only when its content changes: a rewrite on every configure would
# date it anew and recompile every file that includes it.
file(CONFIGURE OUTPUT ${SPM_GENERATED}/config.h CONTENT
     "#pragma once\n#define VERSION \"${SPM_VERSION}\"\n#define PACKAGE \"sentencepiece\"\n#define PACKAGE_STRING \"sentencepiece\"\n")

set(PROTOBUF_LITE_NAMES arena arenastring bytestream coded_stream common extension_set generated_enum_util
    generated_message_table_driven_lite generated_message_util implicit_weak_message int128 io_win32
    message_lite parse_context repeated_field status statusor stringpiece stringprintf structurally_valid
    strutil time wire_format_lite zero_copy_stream zero_copy_stream_impl zero_copy_stream_impl_lite)
list(TRANSFORM PROTOBUF_LITE_NAMES PREPEND ${SPM}/third_party/protobuf-lite/)
list(TRANSFORM PROTOBUF_LITE_NAMES APPEND .cc)
set(SPM_RUNTIME_NAMES bpe_model char_model error filesystem model_factory model_interface normalizer
    sentencepiece_processor unigram_model util word_model builtin_pb/sentencepiece.pb
    builtin_pb/sentencepiece_model.pb)
list(TRANSFORM SPM_RUNTIME_NAMES PREPEND ${SPM}/src/)
list(TRANSFORM SPM_RUNTIME_NAMES APPEND .cc)

add_library(sentencepiece_runtime STATIC ${PROTOBUF_LITE_NAMES} ${SPM_RUNTIME_NAMES}
            ${SPM}/third_party/absl/flags/flag.cc)
# HAVE_PTHREAD selects protobuf-lite's pthread once/mutex; in a single-threaded wasm build they are no-ops.
target_compile_definitions(sentencepiece_runtime PRIVATE _USE_INTERNAL_STRING_VIEW HAVE_PTHREAD=1)
target_compile_options(sentencepiece_runtime PRIVATE -Wno-sign-compare -Wno-deprecated-declarations)
target_include_directories(sentencepiece_runtime PRIVATE ${SPM_GENERATED} ${SPM}/third_party/protobuf-lite
                           ${SPM}/src/builtin_pb ${SPM}/third_party ${SPM})
# PUBLIC: bindings/warm_up.cc builds a ModelProto (src/builtin_pb/sentencepiece_model.pb.h and its
# protobuf-lite headers).
target_include_directories(sentencepiece_runtime PUBLIC ${SPM}/src ${SPM}/third_party/protobuf-lite)
