// What a model path may be (read_model_file, model/model_file.h): only a regular file of at most
// 1 GiB is read; a FIFO, a folder, a device or a larger file is a LoadError before any read. Bytes
// that are not a model file at all, and tensors that share bytes, are a ModelFormatError.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "error.h"
#include "model/model_file.h"
#include "model/safetensors.h"
#include "test_util.h"
#include "translator.h"

namespace crossattn {
namespace {

// A fresh folder under $TMPDIR, removed with what the test put in it.
class ModelPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp ? tmp : "/tmp") + "/crossattn-model-path-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }
  void TearDown() override {
    for (const char* name : {"model.fifo", "sparse.crossattn", "notes.txt", "empty.crossattn"}) {
      std::remove((dir + "/" + name).c_str());
    }
    rmdir(dir.c_str());
  }
  std::string dir;
};

// The error read_model_file(path) raises, checked to be of `code` and to name `path` and `what`.
void expect_refused(const std::string& path, ErrorCode code, const std::string& what) {
  try {
    read_model_file(path);
    ADD_FAILURE() << path << " was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_EQ(std::string(e.what()), path + what);
  }
}

TEST_F(ModelPathTest, OnlyARegularFileOfAtMostOneGibIsRead) {
  const std::string fifo = dir + "/model.fifo", sparse = dir + "/sparse.crossattn";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // 1 GiB + 1 byte with no block written: its size is refused before a byte is read.
  const int fd = open(sparse.c_str(), O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, (off_t{1} << 30) + 1), 0);
  close(fd);
  // A FIFO without a writer: a plain open() would wait for one forever.
  expect_refused(fifo, ErrorCode::kLoad, " is not a regular file");
  expect_refused(dir, ErrorCode::kLoad, " is not a regular file");
  expect_refused("/dev/zero", ErrorCode::kLoad, " is not a regular file");
  expect_refused(sparse, ErrorCode::kLoad, " is 1073741825 bytes; files above 1073741824 bytes (1 GiB) are refused");
  expect_refused(dir + "/missing.crossattn", ErrorCode::kLoad, " does not exist");
  // The C++ API's Translator::from_file reads through the same door.
  try {
    Translator::from_file(fifo);
    ADD_FAILURE() << fifo << " was loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLoad) << e.what();
  }
}

TEST_F(ModelPathTest, TheModelFileReadsWhole) {
  const ModelFileBytes file = read_model_file(testing::model_path());
  const std::vector<uint8_t> expected = testing::read_bytes(testing::model_path());
  ASSERT_EQ(file.size, expected.size());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), file.bytes.get()));
  EXPECT_NO_THROW(ModelFile::parse(file.bytes, file.size));
}

// A text file given as a model says so, in the words of bindings/src/engine.ts.
TEST_F(ModelPathTest, ATextFileIsNotAModelFile) {
  const std::string notes = dir + "/notes.txt", empty = dir + "/empty.crossattn";
  std::ofstream(notes) << "Zwei Hunde spielen im Schnee.\nA dog runs.\n";
  std::ofstream{empty};
  expect_refused(notes, ErrorCode::kModelFormat,
                 " is not a crossattn model file: it starts with \"Zwei Hunde spielen im Sc\", not with a model header");
  expect_refused(empty, ErrorCode::kModelFormat, " is not a crossattn model file: it is empty");
  // The same bytes given as bytes (Translator::from_bytes, the wasm engine): "the model bytes are".
  const std::string text = "<!DOCTYPE html>\n<html>";
  try {
    ModelFile::parse(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    ADD_FAILURE() << "text parsed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kModelFormat);
    EXPECT_EQ(std::string(e.what()),
              "the model bytes are not a crossattn model file: it starts with \"<!DOCTYPE html>.<html>\", not with a model header");
  }
}

// Tensors whose data ranges overlap or alias: each byte of the data belongs to one tensor at most.
TEST(TensorDataTest, TensorsMayNotShareBytes) {
  const std::vector<uint8_t> bytes = testing::read_bytes(testing::model_path());
  testing::Parts intact = testing::split(bytes);
  // Two tensors of one shape and dtype, the second at the first's bytes (an alias).
  const std::string a = "decoder.layers.0.fc2.bias", b = "decoder.layers.0.final_layer_norm.bias";
  ASSERT_EQ(intact.header[a]["shape"], intact.header[b]["shape"]);
  ASSERT_EQ(intact.header[a]["dtype"], intact.header[b]["dtype"]);
  {
    testing::Parts p = intact;
    p.header[b]["data_offsets"] = p.header[a]["data_offsets"];
    testing::expect_model_format_error(testing::join(p), "tensors may not share bytes");
  }
  {
    // `b` moved to start halfway into `a`, keeping its length, inside the data.
    testing::Parts p = intact;
    const uint64_t begin = p.header[a]["data_offsets"][0], end = p.header[a]["data_offsets"][1];
    const uint64_t length = p.header[b]["data_offsets"][1].get<uint64_t>() - p.header[b]["data_offsets"][0].get<uint64_t>();
    const uint64_t moved = begin + (end - begin) / 2;
    p.header[b]["data_offsets"] = {moved, moved + length};
    testing::expect_model_format_error(testing::join(p), "tensors may not share bytes");
  }
  // The intact file, its tensor table rewritten the same way but unchanged, loads.
  const std::vector<uint8_t> rejoined = testing::join(intact);
  EXPECT_NO_THROW(ModelFile::parse(rejoined.data(), rejoined.size()));
}

}  // namespace
}  // namespace crossattn
