// read_idx (porta_read_idx): the IDX format of MNIST and Fashion-MNIST.
//   magic: 0x00 0x00 TYPE NDIM | NDIM big-endian u32 sizes | big-endian data
#include <cstring>
#include <type_traits>

#include "io/input_file.hpp"
#include "io/io.hpp"
#include "ops/ops.hpp"
#include "runtime/error.hpp"

namespace porta::io {
namespace {

struct IdxType {
  unsigned char code;
  const char* name;
  size_t bytes;  // per element in the file
  Dtype dtype;   // what Porta holds it as
};

constexpr IdxType kIdxTypes[] = {
    {0x08, "unsigned byte", 1, Dtype::UInt8}, {0x09, "signed byte", 1, Dtype::Int32},
    {0x0B, "short", 2, Dtype::Int32},         {0x0C, "int", 4, Dtype::Int32},
    {0x0D, "float", 4, Dtype::Float32},       {0x0E, "double", 8, Dtype::Float64},
};

const IdxType& idx_type(unsigned char code, const std::string& where) {
  for (const IdxType& t : kIdxTypes)
    if (t.code == code) return t;
  fail(PORTA_ERROR_IO, where, ": unknown IDX element type 0x", std::hex, int(code),
       " (known: 0x08 ubyte, 0x09 sbyte, 0x0B short, 0x0C int, 0x0D float, 0x0E double)");
}

uint64_t big_endian(const unsigned char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

// Big-endian file elements to native elements of the Porta dtype.
template <typename Out, typename Bits>
std::vector<Out> convert(const std::vector<unsigned char>& data, size_t width) {
  std::vector<Out> out(data.size() / width);
  for (size_t i = 0; i < out.size(); ++i) {
    const auto bits = static_cast<Bits>(big_endian(&data[i * width], width));
    if constexpr (std::is_floating_point_v<Out>) {
      std::memcpy(&out[i], &bits, sizeof(Out));
    } else {
      out[i] = static_cast<Out>(std::make_signed_t<Bits>(bits));  // sign-extends sbyte and short
    }
  }
  return out;
}

TensorPtr to_tensor(const IdxType& type, const std::vector<unsigned char>& data, const Dims& shape) {
  DeviceState& cpu = Registry::get().device(DLDevice{kDLCPU, 0});
  switch (type.code) {
    case 0x08: return ops::from_host(data.data(), Dtype::UInt8, shape, cpu);
    case 0x09: return ops::from_host(convert<int32_t, uint8_t>(data, 1).data(), Dtype::Int32, shape, cpu);
    case 0x0B: return ops::from_host(convert<int32_t, uint16_t>(data, 2).data(), Dtype::Int32, shape, cpu);
    case 0x0C: return ops::from_host(convert<int32_t, uint32_t>(data, 4).data(), Dtype::Int32, shape, cpu);
    case 0x0D: return ops::from_host(convert<float, uint32_t>(data, 4).data(), Dtype::Float32, shape, cpu);
    default: return ops::from_host(convert<double, uint64_t>(data, 8).data(), Dtype::Float64, shape, cpu);
  }
}

}  // namespace

TensorPtr read_idx(const char* path) {
  InputFile file(path, "read_idx");
  const std::string& where = file.where();
  const std::vector<unsigned char> magic = file.read_up_to(4);
  if (magic.size() < 4)
    fail(PORTA_ERROR_IO, where, ": the file has ", magic.size(), " bytes, too few for the 4-byte IDX magic");
  if (magic[0] != 0 || magic[1] != 0)
    fail(PORTA_ERROR_IO, where, ": bad IDX magic (the first two bytes must be 0; is this an IDX file?)");
  const IdxType& type = idx_type(magic[2], where);
  const int ndim = magic[3];
  if (ndim < 1 || ndim > PORTA_MAX_DIMS)
    fail(PORTA_ERROR_IO, where, ": the IDX header declares ", ndim, " dimensions; Porta reads 1 to ", PORTA_MAX_DIMS);

  const std::vector<unsigned char> sizes = file.read_up_to(4 * static_cast<uint64_t>(ndim));
  if (sizes.size() < 4 * static_cast<size_t>(ndim))
    fail(PORTA_ERROR_IO, where, ": the file ends inside the ", ndim, " dimension sizes (truncated)");
  Dims shape;
  uint64_t numel = 1, span = 1;  // span: numel with size-0 dimensions counted as 1, as the row-major strides count them
  for (int i = 0; i < ndim; ++i) {
    const uint64_t d = big_endian(&sizes[4 * static_cast<size_t>(i)], 4);
    shape.push_back(static_cast<int64_t>(d));
    if (span > (static_cast<uint64_t>(INT64_MAX) / type.bytes) / (d ? d : 1))
      fail(PORTA_ERROR_IO, where, ": the IDX shape ", shape.str(), "... is too large to hold (its byte count, ",
           "with size-0 dimensions counted as 1, overflows 64 bits)");
    span *= d ? d : 1;
    numel *= d;
  }
  const uint64_t need = numel * type.bytes;

  const std::vector<unsigned char> data = file.read_up_to(need);
  if (data.size() < need)
    fail(PORTA_ERROR_IO, where, ": truncated: shape ", shape.str(), " of ", type.name, " needs ", need,
         " data bytes but the file holds only ", data.size());
  if (const uint64_t extra = file.skip_rest())
    fail(PORTA_ERROR_IO, where, ": ", extra, " bytes of trailing garbage after the ", need, " data bytes of shape ",
         shape.str(), " (a corrupt file or a wrong header)");
  return to_tensor(type, data, shape);
}

}  // namespace porta::io
