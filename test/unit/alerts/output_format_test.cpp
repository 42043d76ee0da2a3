// Output strings: how each reference form compiles, the errors a bad one
// gives, and what a rendered line and its output_fields hold, with fields
// from a small table (and Falco's own output strings against the real
// field registry).
#include "engine/alerts/output_format.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/fields/field_registry.h"
#include "engine/filter/scanner.h"

namespace kestrel::engine::alerts {
namespace {

using filter::FieldRef;
using filter::FieldSpec;
using filter::FieldValue;
using filter::ValueType;

struct TestField {
  uint32_t id;
  ValueType type;
};

const std::map<std::string, TestField> kFields = {
    {"proc.name", {1, ValueType::kString}},  {"fd.name", {2, ValueType::kString}},
    {"evt.res", {3, ValueType::kInt}},       {"proc.pid", {4, ValueType::kUint}},
    {"fd.connected", {5, ValueType::kBool}}, {"proc.args", {6, ValueType::kStringList}},
    {"proc.aname", {7, ValueType::kString}}, {"proc.cmdline", {8, ValueType::kString}},
    {"evt.time", {9, ValueType::kString}},
};

class TableResolver : public filter::FieldResolver {
 public:
  absl::StatusOr<FieldSpec> Resolve(const FieldRef& field) const override {
    const auto it = kFields.find(field.name);
    if (it == kFields.end()) {
      return absl::NotFoundError(absl::StrCat("no field '", field.name, "'"));
    }
    const uint32_t index = field.index ? 100 * (1 + std::stoul(*field.index)) : 0;
    return FieldSpec{it->second.id + index, it->second.type};
  }
};

class TableReader : public filter::FieldReader {
 public:
  std::map<uint32_t, FieldValue> values;
  bool Read(const FieldSpec& field, FieldValue& out) override {
    const auto it = values.find(field.id);
    if (it == values.end()) return false;
    out = it->second;
    return true;
  }
};

class OutputFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    args_ = {"-c", "id"};
    reader_.values[1].str = "bash";
    reader_.values[2].str = "/etc/shadow";
    reader_.values[3].i = -13;
    reader_.values[4].u = 4242;
    reader_.values[5].b = true;
    reader_.values[6].items = args_;
    reader_.values[307].str = "sshd";  // proc.aname[2]
    reader_.values[9].str = "10:20:30.000000001";
  }

  std::string Text(std::string_view format) {
    absl::StatusOr<OutputFormat> f = OutputFormat::Compile(format, resolver_);
    EXPECT_TRUE(f.ok()) << format << ": " << f.status();
    if (!f.ok()) return "";
    std::string text;
    OutputFields fields;
    f->Render(reader_, text, fields);
    return text;
  }

  OutputFields Fields(std::string_view format) {
    absl::StatusOr<OutputFormat> f = OutputFormat::Compile(format, resolver_);
    EXPECT_TRUE(f.ok()) << format << ": " << f.status();
    if (!f.ok()) return {};
    std::string text;
    OutputFields fields;
    f->Render(reader_, text, fields);
    return fields;
  }

  std::string Error(std::string_view format) {
    absl::StatusOr<OutputFormat> f = OutputFormat::Compile(format, resolver_);
    EXPECT_FALSE(f.ok()) << format;
    return f.ok() ? "" : std::string(f.status().message());
  }

  std::vector<std::string_view> args_;
  TableResolver resolver_;
  TableReader reader_;
};

TEST_F(OutputFormatTest, SubstitutesEachReferenceForm) {
  EXPECT_EQ(Text("Sensitive file opened (file=%fd.name proc=%proc.name)"),
            "Sensitive file opened (file=/etc/shadow proc=bash)");
  EXPECT_EQ(Text("%(proc.name)x %proc.name"), "bashx bash");
  EXPECT_EQ(Text("gp=%proc.aname[2] res=%evt.res pid=%proc.pid c=%fd.connected a=%proc.args"),
            "gp=sshd res=-13 pid=4242 c=true a=-c id");
  EXPECT_EQ(Text("%toupper(proc.name) %(tolower(fd.name))"), "BASH /etc/shadow");
  EXPECT_EQ(Text("no fields at all"), "no fields at all");
}

TEST_F(OutputFormatTest, TrimsLikeFalcosLoader) {
  EXPECT_EQ(Text("  Shell spawned (proc=%proc.name)\n"), "Shell spawned (proc=bash)");
  EXPECT_EQ(Text(" \n"), "");
}

TEST_F(OutputFormatTest, WidthPadsOrCutsTheValue) {
  EXPECT_EQ(Text("[%6proc.name]"), "[bash  ]");
  EXPECT_EQ(Text("[%4fd.name]"), "[/etc]");
}

TEST_F(OutputFormatTest, TheLongestFieldNameWinsAndTheRestIsText) {
  EXPECT_EQ(Text("%proc.name.suffix"), "bash.suffix");
  EXPECT_EQ(Text("%proc.name."), "bash.");
  EXPECT_EQ(Text("%proc.name%fd.name"), "bash/etc/shadow");
}

TEST_F(OutputFormatTest, MissingValuesPrintNotAvailable) {
  reader_.values.erase(2);
  EXPECT_EQ(Text("file=%fd.name gp=%proc.aname[3]"), "file=<NA> gp=<NA>");
  const OutputFields fields = Fields("file=%fd.name");
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].name, "fd.name");
  EXPECT_EQ(fields[0].value, std::nullopt);
}

TEST_F(OutputFormatTest, HostileStringsAreEscapedInTextAndRawInFields) {
  const std::string hostile("evil\x1b[2J\n\"x\\\xff", 13);
  reader_.values[1].str = hostile;
  EXPECT_EQ(Text("proc=%proc.name!"), "proc=evil\\x1b[2J\\x0a\\\"x\\\\\\xff!");
  const OutputFields fields = Fields("proc=%proc.name");
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].value, hostile);
}

TEST_F(OutputFormatTest, OutputFieldsAreTypedDistinctAndInOrder) {
  const OutputFields fields = Fields(
      "%proc.pid %proc.name %evt.res %fd.connected %proc.name %8proc.name %proc.aname[2] "
      "%proc.args %tolower(proc.name)");
  const OutputFields want = {
      {"proc.pid", "4242", FieldJsonKind::kNumber},
      {"proc.name", "bash", FieldJsonKind::kString},
      {"evt.res", "-13", FieldJsonKind::kNumber},
      {"fd.connected", "true", FieldJsonKind::kBool},
      {"proc.aname[2]", "sshd", FieldJsonKind::kString},
      {"proc.args", "-c id", FieldJsonKind::kString},
      {"tolower(proc.name)", "bash", FieldJsonKind::kString},
  };
  EXPECT_EQ(fields, want);
}

TEST_F(OutputFormatTest, FieldNamesListsTheKeys) {
  absl::StatusOr<OutputFormat> f =
      OutputFormat::Compile("%proc.name %fd.name %proc.name %(proc.aname[2])", resolver_);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->FieldNames(), (std::vector<std::string>{"proc.name", "fd.name", "proc.aname[2]"}));
}

TEST_F(OutputFormatTest, RenderingAgainReplacesTheLastEvent) {
  absl::StatusOr<OutputFormat> f = OutputFormat::Compile("p=%proc.name", resolver_);
  ASSERT_TRUE(f.ok());
  std::string text = "stale";
  OutputFields fields = {{"stale", "x", FieldJsonKind::kString}};
  f->Render(reader_, text, fields);
  reader_.values[1].str = "sh";
  f->Render(reader_, text, fields);
  EXPECT_EQ(text, "p=sh");
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].value, "sh");
}

TEST_F(OutputFormatTest, CompileErrorsNameTheFieldAndColumn) {
  EXPECT_EQ(Error("user=%user.nam"),
            "output format, column 7: field user.nam: no field 'user.nam'");
  EXPECT_EQ(Error("ends with %"), "output format, column 11: '%' with no field after it");
  EXPECT_EQ(Error("bad % space"), "output format, column 6: expected a field name after '%'");
  EXPECT_EQ(Error("%(proc.name"), "output format, column 12: expected ')' to close '%('");
  EXPECT_EQ(Error("%tolower(proc.name"),
            "output format, column 19: expected ')' to close tolower(");
  EXPECT_EQ(Error("%proc.aname[2"), "output format, column 13: unclosed '[' after proc.aname");
  EXPECT_EQ(
      Error("%tolower(proc.pid)"),
      "output format, column 2: tolower() does not take an unsigned number: tolower(proc.pid)");
  EXPECT_EQ(Error("%(nosuch.thing)"),
            "output format, column 3: field nosuch.thing: no field 'nosuch.thing'");
}

// Output strings as Falco's rules write them compile against the real
// field registry; a field it lacks is named.
TEST(OutputFormatRegistryTest, FalcoStyleOutputsCompile) {
  fields::FieldRegistry registry;
  for (std::string_view format : {
           "Sensitive file opened for reading by non-trusted program | file=%fd.name "
           "gparent=%proc.aname[2] ggparent=%proc.aname[3] evt_type=%evt.type user=%user.name "
           "user_uid=%user.uid user_loginuid=%user.loginuid process=%proc.name "
           "proc_exepath=%proc.exepath parent=%proc.pname command=%proc.cmdline "
           "terminal=%proc.tty exe_flags=%evt.arg.flags",
           "Shell spawned (%proc.name %proc.pid %proc.ppid %evt.res %container.id "
           "%container.image.repository %evt.time)",
       }) {
    absl::StatusOr<OutputFormat> f = OutputFormat::Compile(format, registry);
    EXPECT_TRUE(f.ok()) << format << ": " << f.status();
  }
  absl::StatusOr<OutputFormat> bad = OutputFormat::Compile("x=%proc.nosuch", registry);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("proc.nosuch"), std::string_view::npos) << bad.status();
}

}  // namespace
}  // namespace kestrel::engine::alerts
