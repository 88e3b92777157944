#include "json/parse.h"

#include <charconv>
#include <cstring>
#include <limits>

#include <rapidjson/encodedstream.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "text/utf8.h"

namespace petstore::json {
namespace {

using rapidjson::SizeType;

// Whether a decimal literal whose conversion overflowed or underflowed was
// too large (true) or too small: its order of magnitude, from the digits
// before the point (or the zeros after it) and the exponent.
bool too_large(std::string_view literal) {
  const auto e = literal.find_first_of("eE");
  const auto mantissa = literal.substr(0, e);
  long long magnitude = 0;
  const auto point = mantissa.find('.');
  const auto whole =
      mantissa.substr(mantissa.front() == '-' ? 1 : 0, point - (mantissa.front() == '-' ? 1 : 0));
  const auto first = whole.find_first_not_of('0');
  if (first != std::string_view::npos) {
    magnitude = static_cast<long long>(whole.size() - first);
  } else if (point != std::string_view::npos) {
    const auto fraction = mantissa.substr(point + 1);
    const auto nonzero = fraction.find_first_not_of('0');
    magnitude = nonzero == std::string_view::npos ? std::numeric_limits<int>::min() / 2
                                                  : -static_cast<long long>(nonzero);
  }
  long long exponent = 0;
  if (e != std::string_view::npos) {
    auto digits = literal.substr(e + 1);
    const bool negative = !digits.empty() && digits.front() == '-';
    if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) {
      digits.remove_prefix(1);
    }
    for (const char c : digits) {  // saturating: the exponent may have any number of digits
      exponent = std::min<long long>(exponent * 10 + (c - '0'), 1'000'000'000LL);
    }
    exponent = negative ? -exponent : exponent;
  }
  return magnitude + exponent > 0;
}

// Forwards the reader's events to the Document, converting numbers itself
// and refusing strings that are not UTF-8.
class Checked {
 public:
  explicit Checked(rapidjson::Document& doc) : doc_(doc) {}

  [[nodiscard]] const char* failure() const { return failure_; }

  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned u) { return doc_.Uint(u); }
  bool Int64(std::int64_t i) { return doc_.Int64(i); }
  bool Uint64(std::uint64_t u) { return doc_.Uint64(u); }
  bool Double(double d) { return doc_.Double(d); }
  bool StartObject() { return doc_.StartObject(); }
  bool EndObject(SizeType members) { return doc_.EndObject(members); }
  bool StartArray() { return doc_.StartArray(); }
  bool EndArray(SizeType elements) { return doc_.EndArray(elements); }

  bool String(const char* s, SizeType length, bool copy) {
    if (!text::is_valid_utf8({s, length})) {
      failure_ = "a string is not valid UTF-8 (a lone surrogate escape such as \\udc00?)";
      return false;
    }
    return doc_.String(s, length, copy);
  }
  bool Key(const char* s, SizeType length, bool copy) { return String(s, length, copy); }

  bool RawNumber(const char* s, SizeType length, bool) {
    const std::string_view literal(s, length);
    const auto* end = s + length;
    if (literal.find_first_of(".eE") == std::string_view::npos) {
      std::int64_t i = 0;
      if (const auto r = std::from_chars(s, end, i); r.ec == std::errc{} && r.ptr == end) {
        return doc_.Int64(i);
      }
      std::uint64_t u = 0;
      if (const auto r = std::from_chars(s, end, u); r.ec == std::errc{} && r.ptr == end) {
        return doc_.Uint64(u);
      }
      // A whole number beyond 64 bits: kept as one, so readers call it out of range.
      return doc_.Double(literal.front() == '-' ? -1e20 : 1e20);
    }
    double d = 0;
    const auto r = std::from_chars(s, end, d);
    if (r.ec == std::errc::result_out_of_range) {
      const bool negative = literal.front() == '-';
      const double inf = std::numeric_limits<double>::infinity();
      d = too_large(literal) ? (negative ? -inf : inf) : (negative ? -0.0 : 0.0);
    } else if (r.ec != std::errc{} || r.ptr != end) {
      failure_ = "a number could not be read";
      return false;
    }
    return doc_.Double(d);
  }

 private:
  rapidjson::Document& doc_;
  const char* failure_ = nullptr;
};

}  // namespace

std::optional<ParseFailure> parse(std::string_view text, rapidjson::Document& doc) {
  if (const auto* nul = static_cast<const char*>(std::memchr(text.data(), '\0', text.size()))) {
    return ParseFailure{"a NUL byte outside a string", static_cast<size_t>(nul - text.data())};
  }
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag |
                              rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::Reader reader;
  rapidjson::MemoryStream memory(text.data(), text.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> input(memory);
  Checked handler(doc);
  auto generate = [&](rapidjson::Document&) { return !reader.Parse<kFlags>(input, handler).IsError(); };
  doc.Populate(generate);
  if (!reader.HasParseError()) {
    return std::nullopt;
  }
  ParseFailure f;
  f.offset = reader.GetErrorOffset();
  f.message = handler.failure() != nullptr ? handler.failure()
                                           : rapidjson::GetParseError_En(reader.GetParseErrorCode());
  return f;
}

}  // namespace petstore::json
