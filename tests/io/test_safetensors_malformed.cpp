// safetensors: every malformed or truncated file is refused with
// PORTA_ERROR_IO and a message naming the file, the tensor and the problem.
#include "io_test_util.hpp"

using namespace porta_io_test;

namespace {

class Malformed : public ::testing::Test {
 protected:
  // Loads `bytes` from a file and expects `status` with a message naming the
  // file and holding every string of `parts`.
  void expect_refused(const Bytes& bytes, std::vector<std::string> parts, porta_status status = PORTA_ERROR_IO) {
    const std::string path = dir_.file("bad" + std::to_string(count_++) + ".safetensors");
    write_file(path, bytes);
    porta_tensor_list* const sentinel = reinterpret_cast<porta_tensor_list*>(0x1);
    porta_tensor_list* out = sentinel;
    EXPECT_EQ(porta_safetensors_load(path.c_str(), device("cpu"), &out), status) << error();
    EXPECT_EQ(out, sentinel);
    const std::string message = error();
    EXPECT_TRUE(has(message, "safetensors_load: '" + path + "'")) << message;
    for (const std::string& p : parts) EXPECT_TRUE(has(message, p)) << "missing \"" << p << "\" in: " << message;
  }
  void expect_refused(const std::string& header, const Bytes& data, std::vector<std::string> parts,
                      porta_status status = PORTA_ERROR_IO) {
    expect_refused(safetensors_bytes(header, data), std::move(parts), status);
  }

  ScratchDir dir_;
  int count_ = 0;
};

// One F32 tensor "w" with the given shape and offsets.
std::string one(const std::string& shape, const std::string& offsets, const std::string& dtype = "F32") {
  return "{\"w\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data_offsets\":" + offsets + "}}";
}

const Bytes k8(8, 0);

}  // namespace

TEST_F(Malformed, TooShortForTheLengthField) {
  expect_refused(Bytes{1, 2, 3}, {"3 bytes", "8-byte header length"});
  expect_refused(Bytes{}, {"0 bytes"});
}

TEST_F(Malformed, HeaderLengthPastTheEndOfTheFile) {
  Bytes b = safetensors_bytes(one("[2]", "[0,8]"), k8);
  b[0] = 0xFF;  // claims a longer header
  b[5] = 0x01;
  expect_refused(b, {"header length", "exceeds"});
}

TEST_F(Malformed, TruncatedFile) {
  Bytes b = safetensors_bytes(one("[2]", "[0,8]"), k8);
  b.resize(b.size() - 3);
  expect_refused(b, {"tensor 'w'", "reach past the end of the 5-byte data buffer"});
}

TEST_F(Malformed, InvalidJson) {
  expect_refused("{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},}", k8,
                 {"not valid JSON", "at byte 54", "unexpected '}'; expected string literal"});
  expect_refused("{\"w\":{\"dtype\":\"F32", k8, {"not valid JSON", "unexpected end", "missing closing quote"});
  expect_refused("{\"w\":1} x", k8, {"not valid JSON", "after the end", "at byte 8"});
  expect_refused("{} {}", {}, {"not valid JSON", "after the end", "at byte 3"});
  expect_refused("{\"w\\q\":1}", k8, {"not valid JSON", "forbidden character after backslash", "at byte 4"});
  expect_refused("{\"w\x01\":1}", k8, {"not valid JSON", "control character"});
  expect_refused("{\"w\xff\":1}", k8, {"not valid JSON", "UTF-8"});
  expect_refused("{\"w\\ud800\":1}", k8, {"not valid JSON", "surrogate"});
  expect_refused("{\"w\\udc00\":1}", k8, {"not valid JSON", "surrogate"});
  expect_refused("{w:1}", k8, {"not valid JSON", "object key", "expected string literal"});
  expect_refused("{\"a\":[1 2]}", {}, {"not valid JSON", "expected ']'"});
  expect_refused("{\"a\":1,}", {}, {"not valid JSON"});
  expect_refused("{\"a\":NaN}", {}, {"not valid JSON", "invalid literal"});
  expect_refused("{\"a\":tru}", {}, {"not valid JSON", "invalid literal"});
  expect_refused("/* a comment */{}", {}, {"not valid JSON"});
  expect_refused("", {}, {"not valid JSON", "unexpected end"});
  expect_refused("        ", {}, {"not valid JSON", "unexpected end"});
  expect_refused(one("[2]", "[0,8.0]"), k8, {"fraction", "at byte 50"});
  expect_refused(one("[2]", "[0,8e0]"), k8, {"fraction or exponent"});
  expect_refused(one("[2]", "[0,1e999]"), k8, {"fraction or exponent"});
  expect_refused(one("[2]", "[0,08]"), k8, {"leading zero", "at byte 50"});
  expect_refused(one("[2]", "[0,-08]"), k8, {"leading zero"});
  expect_refused(one("[99999999999999999999]", "[0,8]"), k8, {"too large", "at byte 29"});
  expect_refused(std::string(100, '[') + std::string(100, ']'), {},
                 {"nesting deeper than 64 levels", "at byte 64"});
}

// Integers are read exactly as int64 (never through a double, which would
// turn 2^53 + 1 into 2^53); anything outside int64 is refused.
TEST_F(Malformed, IntegersAreExactAndInt64) {
  expect_refused(one("[2]", "[0,9007199254740993]"), k8, {"[0, 9007199254740993]", "past the end"});
  expect_refused(one("[9007199254740993]", "[0,8]"), k8, {"shape [9007199254740993]", "needs 36028797018963972"});
  expect_refused(one("[2]", "[0,9223372036854775807]"), k8, {"[0, 9223372036854775807]", "past the end"});
  expect_refused(one("[2]", "[-9223372036854775808,8]"), k8, {"holds -9223372036854775808, which is negative"});
  for (const char* out_of_range : {"9223372036854775808", "18446744073709551615", "18446744073709551616",
                                   "-9223372036854775809", "100000000000000000000000000000000000000000000000000"})
    expect_refused(one("[2]", std::string("[0,") + out_of_range + "]"), k8,
                   {"not valid JSON", "an integer too large for int64", "at byte 50"});
  expect_refused(one("[2]", "[0," + std::string(400, '9') + "]"), k8, {"too large for int64"});
  expect_refused(one("[-0]", "[0,8]"), k8, {"shape [0]", "needs 0"});  // -0 is 0
}

TEST_F(Malformed, NestingIsLimitedTo64Levels) {
  expect_refused(std::string(64, '[') + std::string(64, ']'), {}, {"the header is an array, not a JSON object"});
  expect_refused(std::string(65, '[') + std::string(65, ']'), {}, {"nesting deeper than 64 levels"});
  std::string objects;
  for (int i = 0; i < 65; ++i) objects += "{\"a\":";
  expect_refused(objects + "1" + std::string(65, '}'), {}, {"nesting deeper than 64 levels"});
}

TEST_F(Malformed, NulBytesAndByteOrderMarks) {
  // A NUL ends the text for the library, so what follows it must not be skipped.
  expect_refused(std::string("{}\0{\"w\":1}", 10), {}, {"not valid JSON", "a NUL byte at byte 2"});
  expect_refused(std::string("{\"w\0\":1}", 8), {}, {"NUL byte at byte 3"});
  expect_refused(std::string("{}\0", 3), {}, {"NUL byte at byte 2"});
  expect_refused("\xEF\xBB\xBF{}", {}, {"not valid JSON", "byte-order mark"});
  expect_refused("\xEF\xBB{}", {}, {"not valid JSON"});
}

TEST_F(Malformed, InvalidUtf8IsRefusedAndNeverEchoedRaw) {
  for (const char* bad : {"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80"})
    expect_refused(std::string("{\"w") + bad + "\":1}", k8, {"not valid JSON", "UTF-8"});
  expect_refused("{\"w\xff\":1}", k8, {"\\xff"});
  const std::string message = error();
  for (char c : message) EXPECT_LT(static_cast<unsigned char>(c), 0x80) << "a raw byte of the header in: " << message;
  // A long token is quoted only in part.
  expect_refused("{\"" + std::string(5000, 'x') + "\xff\":1}", k8, {"UTF-8", "xxx..."});
  EXPECT_LT(error().size(), 600u) << error();
}

TEST_F(Malformed, HeaderIsNotAnObject) {
  expect_refused("[1,2]", {}, {"the header is an array, not a JSON object"});
}

TEST_F(Malformed, EntryShapes) {
  expect_refused("{\"w\":[]}", {}, {"tensor 'w'", "not an object"});
  expect_refused("{\"w\":{\"shape\":[2],\"data_offsets\":[0,8]}}", k8, {"tensor 'w'", "has no \"dtype\""});
  expect_refused("{\"w\":{\"dtype\":\"F32\",\"data_offsets\":[0,8]}}", k8, {"tensor 'w'", "has no \"shape\""});
  expect_refused("{\"w\":{\"dtype\":\"F32\",\"shape\":[2]}}", k8, {"tensor 'w'", "has no \"data_offsets\""});
  expect_refused("{\"w\":{\"dtype\":\"F32\",\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", k8,
                 {"tensor 'w'", "\"dtype\" appears twice"});
  expect_refused("{\"w\":{\"dtype\":32,\"shape\":[2],\"data_offsets\":[0,8]}}", k8, {"tensor 'w'", "dtype is an integer"});
  expect_refused(one("2", "[0,8]"), k8, {"tensor 'w'", "shape is an integer, not an array"});
  expect_refused(one("[\"2\"]", "[0,8]"), k8, {"tensor 'w'", "shape holds a string"});
  expect_refused(one("[2]", "[0]"), k8, {"tensor 'w'", "[begin, end]"});
  expect_refused(one("[2]", "[0,8,9]"), k8, {"tensor 'w'", "[begin, end]"});
  expect_refused(one("[2]", "{}"), k8, {"tensor 'w'", "[begin, end]"});
}

TEST_F(Malformed, UnsupportedDtypeNamesItAndWhatPortaReads) {
  expect_refused(one("[4]", "[0,8]", "F8_E4M3"), k8, {"tensor 'w'", "\"F8_E4M3\"", "F32, F64, I32, I64, U8, BOOL, I8, I16, F16 and BF16"},
                 PORTA_ERROR_UNSUPPORTED_DTYPE);
  expect_refused(one("[4]", "[0,8]", "f32"), k8, {"\"f32\""}, PORTA_ERROR_UNSUPPORTED_DTYPE);
}

TEST_F(Malformed, OffsetsOutsideTheBuffer) {
  expect_refused(one("[4]", "[0,16]"), k8, {"tensor 'w'", "[0, 16]", "past the end of the 8-byte data buffer"});
}

TEST_F(Malformed, OffsetsBackwards) {
  expect_refused(one("[0]", "[8,0]"), k8, {"tensor 'w'", "[8, 0]", "end before they begin"});
}

TEST_F(Malformed, SizeDisagreesWithShape) {
  expect_refused(one("[3]", "[0,8]"), k8, {"tensor 'w'", "span 8 bytes", "[3]", "needs 12"});
  expect_refused(one("[2]", "[0,8]", "F64"), Bytes(8, 0), {"tensor 'w'", "needs 16"});
}

TEST_F(Malformed, NegativeShape) {
  expect_refused(one("[-2]", "[0,8]"), k8, {"tensor 'w'", "shape holds -2, which is negative"});
  expect_refused(one("[2]", "[-1,8]"), k8, {"tensor 'w'", "data_offsets holds -1"});
}

TEST_F(Malformed, ElementCountOverflow) {
  expect_refused(one("[4294967296,4294967296,4294967296]", "[0,8]"), k8, {"tensor 'w'", "more elements than int64"});
  expect_refused(one("[4611686018427387904]", "[0,8]"), k8, {"tensor 'w'", "more bytes than 64 bits"});
}

TEST_F(Malformed, TooManyDimensions) {
  expect_refused(one("[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]", "[0,4]"), Bytes(4, 0),
                 {"tensor 'w'", "17 dimensions", "at most 16"});
}

TEST_F(Malformed, OverlappingEntries) {
  const std::string h =
      "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
      "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}";
  expect_refused(h, Bytes(12, 0), {"tensor 'b'", "overlap tensor 'a'"});
  const std::string same =
      "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
      "\"b\":{\"dtype\":\"I32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
  expect_refused(same, k8, {"overlap"});
}

TEST_F(Malformed, GapsAndLeftoverBytes) {
  expect_refused(one("[2]", "[4,12]"), Bytes(12, 0), {"tensor 'w'", "gap", "[0, 4)"});
  expect_refused(one("[2]", "[0,8]"), Bytes(11, 0), {"11 bytes", "cover only 8", "trailing"});
}

TEST_F(Malformed, DuplicateNames) {
  const std::string h =
      "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
      "\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}";
  expect_refused(h, k8, {"'w' twice", "duplicate"});
}

TEST_F(Malformed, Metadata) {
  expect_refused("{\"__metadata__\":[]}", {}, {"\"__metadata__\" is an array"});
  expect_refused("{\"__metadata__\":{\"k\":1}}", {}, {"entry 'k' is an integer, not a string"});
  expect_refused("{\"__metadata__\":{},\"__metadata__\":{}}", {}, {"twice"});
  expect_refused("{\"__metadata__\":{\"k\":\"a\",\"k\":\"b\"}}", {}, {"\"__metadata__\" names 'k' twice"});
}

TEST_F(Malformed, BoolBytesOtherThanZeroOrOne) {
  expect_refused(one("[3]", "[0,3]", "BOOL"), Bytes{0, 1, 2}, {"tensor 'w'", "element 2 holds byte 2"});
}

TEST_F(Malformed, NulInName) {
  expect_refused("{\"w\\u0000x\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[0,0]}}", {}, {"tensor 'w\\x00x'", "NUL"});
}

TEST_F(Malformed, TruncatedSavedFile) {
  // A real file cut short, at every length below its size.
  Tensor t = from(std::vector<float>{1, 2, 3}, porta_float32, {3}, device("cpu"));
  const char* names[] = {"t"};
  porta_tensor* tensors[] = {t.get()};
  const std::string path = dir_.file("whole.safetensors");
  PORTA_ASSERT_OK(porta_safetensors_save(path.c_str(), names, tensors, 1));
  const Bytes whole = read_file(path);
  for (size_t n = 0; n < whole.size(); ++n) {
    const std::string cut = dir_.file("cut.safetensors");
    write_file(cut, Bytes(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n)));
    porta_tensor_list* out = nullptr;
    EXPECT_EQ(porta_safetensors_load(cut.c_str(), device("cpu"), &out), PORTA_ERROR_IO) << "cut at " << n;
    EXPECT_EQ(out, nullptr);
  }
}
