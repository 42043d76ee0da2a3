// Rewrites a .BTF.ext section (dumped by llvm-objcopy) so that its line
// info holds one line per function, the function's first; the function info
// and the CO-RE relocations libbpf needs are kept whole.
//
// Line info maps each instruction to a source line for verifier logs. It is
// nine tenths of the section, and the skeleton embeds the whole object: every
// process that opens the probe kept it resident twice, once in the binary's
// pages and once in libbpf's copy. The kernel wants a line at the start of
// every function, and libbpf warns for a program without any, so those stay.
// The linked object in the build tree keeps every line for reading verifier
// logs by hand.
//
// Usage: btf_ext_function_lines IN OUT. Exit 1 with one line on stderr when
// IN is not a .BTF.ext this tool knows (magic, version, sizes) or a function
// has no line at its start.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace
{

// The header as the kernel's include/uapi/linux/btf.h and libbpf define it.
struct BtfExtHeader {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off;
	uint32_t func_info_len;
	uint32_t line_info_off;
	uint32_t line_info_len;
	uint32_t core_relo_off;
	uint32_t core_relo_len;
};
static_assert(sizeof(BtfExtHeader) == 32);

constexpr uint16_t kBtfMagic = 0xeB9F;

// Reads little-endian words of one subsection. Reading past its end sets
// `short_read` and yields zeros, so a caller checks once, at the end.
class Reader
{
      public:
	Reader(const char *data, size_t size) : data_(data), size_(size)
	{
	}
	bool done() const
	{
		return at_ >= size_;
	}
	bool short_read() const
	{
		return short_read_;
	}
	uint32_t Word()
	{
		uint32_t v = 0;
		if (const char *p = Bytes(4))
			std::memcpy(&v, p, 4);
		return v;
	}
	const char *Bytes(size_t n)
	{
		if (at_ + n > size_) {
			short_read_ = true;
			at_ = size_;
			return nullptr;
		}
		const char *p = data_ + at_;
		at_ += n;
		return p;
	}

      private:
	const char *data_;
	size_t size_;
	size_t at_ = 0;
	bool short_read_ = false;
};

void PutWord(std::vector<char> &out, uint32_t v)
{
	const char *p = reinterpret_cast<const char *>(&v);
	out.insert(out.end(), p, p + 4);
}

using FunctionStartMap = std::map<uint32_t, std::set<uint32_t>>;

// The first instruction of every function, by section name offset, from the
// function info: records of {insn_off, type_id}.
std::optional<FunctionStartMap> FunctionStarts(const char *info, size_t len, std::string *error)
{
	FunctionStartMap starts;
	Reader r(info, len);
	const uint32_t rec_size = r.Word();
	if (rec_size < 8) {
		*error = "function info records shorter than 8 bytes";
		return std::nullopt;
	}
	while (!r.done()) {
		const uint32_t sec = r.Word();
		const uint32_t n = r.Word();
		for (uint32_t i = 0; i < n && !r.short_read(); ++i) {
			if (const char *rec = r.Bytes(rec_size)) {
				uint32_t insn_off;
				std::memcpy(&insn_off, rec, 4);
				starts[sec].insert(insn_off);
			}
		}
	}
	if (r.short_read()) {
		*error = "the function info ends inside a record";
		return std::nullopt;
	}
	return starts;
}

// The line info with only the first record at each function's start: records
// of {insn_off, file_name_off, line_off, line_col}, in the input's order.
std::optional<std::vector<char>> FunctionLines(const char *info, size_t len,
					       const FunctionStartMap &starts, std::string *error)
{
	std::vector<char> out;
	Reader r(info, len);
	const uint32_t rec_size = r.Word();
	if (rec_size < 16) {
		*error = "line info records shorter than 16 bytes";
		return std::nullopt;
	}
	PutWord(out, rec_size);
	while (!r.done()) {
		const uint32_t sec = r.Word();
		const uint32_t n = r.Word();
		const auto sec_starts = starts.find(sec);
		std::vector<char> kept;
		std::set<uint32_t> seen;
		for (uint32_t i = 0; i < n && !r.short_read(); ++i) {
			const char *rec = r.Bytes(rec_size);
			if (rec == nullptr)
				break;
			uint32_t insn_off;
			std::memcpy(&insn_off, rec, 4);
			if (sec_starts == starts.end() || sec_starts->second.count(insn_off) == 0)
				continue;
			if (!seen.insert(insn_off).second)
				continue;
			kept.insert(kept.end(), rec, rec + rec_size);
		}
		if (r.short_read())
			break;
		if (sec_starts != starts.end() && seen.size() != sec_starts->second.size()) {
			*error = "a function has no line at its first instruction";
			return std::nullopt;
		}
		if (seen.empty())
			continue;
		PutWord(out, sec);
		PutWord(out, static_cast<uint32_t>(seen.size()));
		out.insert(out.end(), kept.begin(), kept.end());
	}
	if (r.short_read()) {
		*error = "the line info ends inside a record";
		return std::nullopt;
	}
	return out;
}

int Fail(const std::string &what)
{
	std::fprintf(stderr, "btf_ext_function_lines: %s\n", what.c_str());
	return 1;
}

bool InBounds(uint64_t off, uint64_t len, uint64_t size)
{
	return off + len <= size;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 3)
		return Fail("usage: btf_ext_function_lines IN OUT");
	const std::string in_path = argv[1];
	std::ifstream in(in_path, std::ios::binary);
	if (!in)
		return Fail("cannot read " + in_path);
	const std::vector<char> ext((std::istreambuf_iterator<char>(in)),
				    std::istreambuf_iterator<char>());
	BtfExtHeader hdr{};
	if (ext.size() < sizeof(hdr))
		return Fail(in_path + ": shorter than a header");
	std::memcpy(&hdr, ext.data(), sizeof(hdr));
	if (hdr.magic != kBtfMagic || hdr.version != 1 || hdr.hdr_len < sizeof(hdr) ||
	    hdr.hdr_len > ext.size()) {
		return Fail(in_path + ": not a little-endian .BTF.ext of version 1");
	}
	const uint64_t body = ext.size() - hdr.hdr_len;
	if (!InBounds(hdr.func_info_off, hdr.func_info_len, body) ||
	    !InBounds(hdr.line_info_off, hdr.line_info_len, body) ||
	    !InBounds(hdr.core_relo_off, hdr.core_relo_len, body)) {
		return Fail(in_path + ": a subsection lies outside the section");
	}
	const char *start = ext.data() + hdr.hdr_len;
	std::string error;
	const std::optional<FunctionStartMap> starts =
	    FunctionStarts(start + hdr.func_info_off, hdr.func_info_len, &error);
	if (!starts)
		return Fail(in_path + ": " + error);
	const std::optional<std::vector<char>> lines =
	    FunctionLines(start + hdr.line_info_off, hdr.line_info_len, *starts, &error);
	if (!lines)
		return Fail(in_path + ": " + error);
	// Function info, lines, relocations: each a whole number of words, so
	// every subsection stays 4-byte aligned as libbpf requires.
	if (hdr.func_info_len % 4 != 0)
		return Fail(in_path + ": function info not word-sized");
	BtfExtHeader out_hdr = hdr;
	out_hdr.func_info_off = 0;
	out_hdr.line_info_off = hdr.func_info_len;
	out_hdr.line_info_len = static_cast<uint32_t>(lines->size());
	out_hdr.core_relo_off = out_hdr.line_info_off + out_hdr.line_info_len;
	std::vector<char> out(ext.data(), ext.data() + hdr.hdr_len);
	std::memcpy(out.data(), &out_hdr, sizeof(out_hdr));
	out.insert(out.end(), start + hdr.func_info_off,
		   start + hdr.func_info_off + hdr.func_info_len);
	out.insert(out.end(), lines->begin(), lines->end());
	out.insert(out.end(), start + hdr.core_relo_off,
		   start + hdr.core_relo_off + hdr.core_relo_len);
	std::ofstream dst(argv[2], std::ios::binary | std::ios::trunc);
	dst.write(out.data(), static_cast<std::streamsize>(out.size()));
	if (!dst)
		return Fail(std::string("cannot write ") + argv[2]);
	return 0;
}
