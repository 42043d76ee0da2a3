// The compiled program: every operator on every type, transformers,
// field-to-field comparisons, sharing between conditions, folding, and an
// error for each way a condition can fail to compile. Fields come from a
// small table written here, the way the fields layer will supply them.
#include "engine/filter/filter_program.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/filter/parser.h"
#include "engine/filter/program_inspector.h"

namespace kestrel::engine::filter {
namespace {

struct TestField {
  uint32_t id;
  ValueType type;
  Multiplicity multiplicity = Multiplicity::kOne;
};

const std::map<std::string, TestField> kFields = {
    {"proc.name", {1, ValueType::kString}},
    {"proc.pname", {2, ValueType::kString}},
    {"fd.name", {3, ValueType::kString}},
    {"evt.res", {4, ValueType::kInt}},
    {"proc.pid", {5, ValueType::kUint}},
    {"proc.ppid", {6, ValueType::kUint}},
    {"fd.connected", {7, ValueType::kBool}},
    {"proc.args", {8, ValueType::kStringList}},
    {"evt.buffer", {9, ValueType::kString}},
    {"evt.type", {10, ValueType::kString}},
    {"proc.aname", {11, ValueType::kString}},
    {"fd.port", {12, ValueType::kUint, Multiplicity::kEitherEnd}},
    {"proc.apid", {13, ValueType::kInt, Multiplicity::kAnyValue}},
    {"fd.sip", {14, ValueType::kIpAddr}},
    {"fd.net", {15, ValueType::kIpNet, Multiplicity::kEitherEnd}},
    {"proc.anames", {16, ValueType::kString, Multiplicity::kAnyValue}},
    {"proc.cwd", {17, ValueType::kString}},  // never given a value
};

class TableResolver : public FieldResolver {
 public:
  absl::StatusOr<FieldSpec> Resolve(const FieldRef& field) const override {
    const auto it = kFields.find(field.name);
    if (it == kFields.end()) {
      return absl::NotFoundError(absl::StrCat("no field '", field.name, "'"));
    }
    // An indexed field is a field of its own: proc.aname[2] is not proc.aname[3].
    const uint32_t index = field.index ? 100 * (1 + std::stoul(*field.index)) : 0;
    return FieldSpec{it->second.id + index, it->second.type, it->second.multiplicity};
  }
};

// One event's values, by field id; a field not set here has no value.
class TableReader : public FieldReader {
 public:
  std::map<uint32_t, FieldValue> values;
  std::map<uint32_t, int> reads;

  bool Read(const FieldSpec& field, FieldValue& out) override {
    ++reads[field.id];
    const auto it = values.find(field.id);
    if (it == values.end()) return false;
    out = it->second;
    return true;
  }
};

class FilterProgramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    args_ = {"-c", "curl http://x"};
    Str(1, "bash");
    Str(2, "sshd");
    Str(3, "/etc/shadow");
    reader_.values[4].i = -13;
    reader_.values[5].u = 4242;
    reader_.values[6].u = 1;
    reader_.values[7].b = true;
    reader_.values[8].items = args_;
    Str(9, std::string_view("\x7f"
                            "ELF\x02\x01",
                            6));
    Str(10, "openat");
    Str(111, "systemd");  // proc.aname[0]
    reader_.values[12].uints = ports_;
    reader_.values[13].ints = apids_;
    Str(14, "10.1.2.3");
    reader_.values[15].items = ips_;
    reader_.values[16].items = anames_;
  }

  void Str(uint32_t id, std::string_view s) { reader_.values[id].str = s; }

  // Compiles `condition` alone and evaluates it on the test's event.
  bool Eval(std::string_view condition) {
    FilterProgram program;
    absl::StatusOr<ExprPtr> e = ParseCondition(condition);
    EXPECT_TRUE(e.ok()) << e.status();
    if (!e.ok()) return false;
    absl::StatusOr<FilterProgram::ConditionId> id = program.Add(**e, resolver_);
    EXPECT_TRUE(id.ok()) << condition << ": " << id.status();
    if (!id.ok()) return false;
    program.BeginEvent(reader_);
    return program.Matches(*id);
  }

  std::string CompileError(std::string_view condition) {
    FilterProgram program;
    absl::StatusOr<ExprPtr> e = ParseCondition(condition);
    if (!e.ok()) return "parse error: " + std::string(e.status().message());
    absl::StatusOr<FilterProgram::ConditionId> id = program.Add(**e, resolver_);
    return id.ok() ? "compiled" : std::string(id.status().message());
  }

  std::vector<std::string_view> args_;
  const uint64_t ports_[2] = {40000, 443};
  const int64_t apids_[3] = {200, 100, 1};
  const std::string_view ips_[2] = {"10.0.0.5", "fd00::1"};
  const std::string_view anames_[2] = {"bash", "sshd"};
  TableResolver resolver_;
  TableReader reader_;
};

TEST_F(FilterProgramTest, StringOperators) {
  EXPECT_TRUE(Eval("proc.name = bash"));
  EXPECT_FALSE(Eval("proc.name = sh"));
  EXPECT_TRUE(Eval("proc.name != sh"));
  EXPECT_TRUE(Eval("fd.name contains shad"));
  EXPECT_TRUE(Eval("fd.name icontains SHAD"));
  EXPECT_FALSE(Eval("fd.name contains SHAD"));
  EXPECT_TRUE(Eval("fd.name startswith /etc/"));
  EXPECT_TRUE(Eval("fd.name endswith dow"));
  EXPECT_TRUE(Eval("fd.name glob /etc/s*"));
  EXPECT_FALSE(Eval("fd.name glob /ETC/s*"));
  EXPECT_TRUE(Eval("fd.name iglob /ETC/S*"));
  EXPECT_TRUE(Eval("proc.name regex \"b[a-z]+h\""));
  EXPECT_FALSE(Eval("proc.name regex \"as\"")) << "regex matches the whole value";
  EXPECT_TRUE(Eval("proc.name in (sh, bash, zsh)"));
  EXPECT_FALSE(Eval("proc.name in (sh, zsh)"));
  EXPECT_TRUE(Eval("evt.buffer bcontains 454c46"));
  EXPECT_TRUE(Eval("evt.buffer bstartswith 7f454C46"));
  EXPECT_FALSE(Eval("evt.buffer bstartswith 454c46"));
}

TEST_F(FilterProgramTest, PmatchMatchesWholePathComponents) {
  EXPECT_TRUE(Eval("fd.name pmatch (/usr, /etc)"));
  EXPECT_TRUE(Eval("fd.name pmatch (/etc/shadow)"));
  EXPECT_TRUE(Eval("fd.name pmatch (/etc/)"));
  EXPECT_TRUE(Eval("fd.name pmatch (/)"));
  EXPECT_FALSE(Eval("fd.name pmatch (/et, /etc/shadow2, /usr)"));
}

// Falco matches a glob component against one component of the path.
TEST_F(FilterProgramTest, PmatchTakesGlobComponents) {
  EXPECT_TRUE(Eval("fd.name pmatch (/e*)"));
  EXPECT_TRUE(Eval("fd.name pmatch (/usr, /*/shadow)"));
  EXPECT_TRUE(Eval("fd.name pmatch (/et?/sha[a-z]ow)"));
  EXPECT_TRUE(Eval("fd.name pmatch (/*)"));
  EXPECT_FALSE(Eval("fd.name pmatch (/*/shadow/*)")) << "longer than the path";
  EXPECT_FALSE(Eval("fd.name pmatch (/*/passwd, /usr/*)"));
  EXPECT_FALSE(Eval("fd.name pmatch (/e)")) << "a literal stays a whole component";
  EXPECT_FALSE(Eval("fd.name pmatch (/e*c/x*)"));
}

// As Falco's strcmp: bytes in order.
TEST_F(FilterProgramTest, StringsCompareInByteOrder) {
  EXPECT_TRUE(Eval("proc.name < val(proc.pname)")) << "bash < sshd";
  EXPECT_FALSE(Eval("proc.name >= val(proc.pname)"));
  EXPECT_TRUE(Eval("fd.name < 1")) << "/ sorts before 1";
  EXPECT_TRUE(Eval("proc.name <= concat(\"ba\", \"sh\")"));
}

TEST_F(FilterProgramTest, NumberAndBoolOperators) {
  EXPECT_TRUE(Eval("evt.res < 0"));
  EXPECT_TRUE(Eval("evt.res = -13"));
  EXPECT_TRUE(Eval("evt.res >= -13"));
  EXPECT_FALSE(Eval("evt.res > -13"));
  EXPECT_TRUE(Eval("proc.pid in (1, 4242)"));
  EXPECT_TRUE(Eval("proc.pid = 0x1092"));
  EXPECT_TRUE(Eval("proc.pid <= 4242 and proc.pid > 4241"));
  EXPECT_TRUE(Eval("fd.connected = true"));
  EXPECT_TRUE(Eval("fd.connected != false"));
  EXPECT_TRUE(Eval("fd.connected in (false, true)"));
  EXPECT_FALSE(Eval("fd.connected in (false)"));
  EXPECT_TRUE(Eval("fd.connected intersects (true)"));
}

TEST_F(FilterProgramTest, ListFields) {
  EXPECT_TRUE(Eval("proc.args intersects (-c, -x)"));
  EXPECT_FALSE(Eval("proc.args intersects (-x)"));
  EXPECT_TRUE(Eval("proc.args in (-c, \"curl http://x\", extra)")) << "every item is in the set";
  EXPECT_FALSE(Eval("proc.args in (-c)"));
  EXPECT_TRUE(Eval("len(proc.args) = 2"));
}

// A field of several values is compared value by value: any match decides,
// except `!=` on either-end fields, which asks every value to differ.
TEST_F(FilterProgramTest, FieldsOfSeveralValues) {
  EXPECT_TRUE(Eval("fd.port = 443 and fd.port = 40000 and fd.port in (22, 443)"));
  EXPECT_FALSE(Eval("fd.port = 22"));
  EXPECT_FALSE(Eval("fd.port != 443"));
  EXPECT_TRUE(Eval("fd.port != 22"));
  EXPECT_TRUE(Eval("fd.port < 1024 and fd.port >= 40000"));
  EXPECT_TRUE(Eval("proc.apid = 1 and proc.apid in (100) and proc.apid > 150"));
  EXPECT_TRUE(Eval("proc.apid != 1")) << "any-value fields: some value differs";
  EXPECT_FALSE(Eval("proc.apid < 1"));
  EXPECT_TRUE(Eval("proc.anames = sshd and proc.anames startswith ba and proc.anames exists"));
  EXPECT_TRUE(Eval("proc.anames in (sh, bash) and proc.anames regex 's+hd'"));
  EXPECT_FALSE(Eval("proc.anames contains zsh"));
  reader_.values[16].items = {};
  EXPECT_FALSE(Eval("proc.anames exists")) << "no values: nothing to compare";
  EXPECT_FALSE(Eval("proc.anames != x"));
  EXPECT_NE(CompileError("len(proc.anames) > 1").find("several values"), std::string::npos);
}

TEST_F(FilterProgramTest, AddressesAndNetworks) {
  EXPECT_TRUE(Eval("fd.sip = 10.1.2.3 and fd.sip != 10.1.2.4 and fd.sip in (::1, 10.1.2.3)"));
  EXPECT_FALSE(Eval("fd.sip = ::1"));
  EXPECT_TRUE(Eval("fd.net = 10.0.0.0/8 and fd.net = fd00::/8"));
  EXPECT_FALSE(Eval("fd.net != 10.0.0.0/8"));
  EXPECT_TRUE(Eval("fd.net != 192.168.0.0/16"));
  EXPECT_TRUE(Eval("fd.net in (192.168.0.0/16, fd00::/16)"));
  Str(14, "not an address");
  EXPECT_FALSE(Eval("fd.sip = 10.1.2.3"));
  EXPECT_TRUE(Eval("fd.sip != 10.1.2.3")) << "a value that is no address differs";
  EXPECT_NE(CompileError("fd.sip = 10.0.0.0/8").find("is not an IP address"), std::string::npos);
  EXPECT_NE(CompileError("fd.net = 10.0.0.0/40").find("is not an IP network"), std::string::npos);
  EXPECT_NE(CompileError("fd.sip glob '10.*'").find("does not apply to fd.sip"), std::string::npos);
}

TEST_F(FilterProgramTest, AMissingFieldFailsEveryComparisonButNotItsNegation) {
  reader_.values.erase(3);
  EXPECT_FALSE(Eval("fd.name = /etc/shadow"));
  EXPECT_FALSE(Eval("fd.name != /etc/shadow"));
  EXPECT_FALSE(Eval("fd.name exists"));
  EXPECT_TRUE(Eval("not fd.name exists"));
  EXPECT_TRUE(Eval("proc.name exists"));
}

TEST_F(FilterProgramTest, Transformers) {
  Str(1, "BaSh");
  EXPECT_TRUE(Eval("tolower(proc.name) = bash"));
  EXPECT_TRUE(Eval("toupper(proc.name) = BASH"));
  EXPECT_TRUE(Eval("basename(fd.name) = shadow"));
  EXPECT_TRUE(Eval("len(fd.name) = 11"));
  EXPECT_TRUE(Eval("toupper(basename(fd.name)) = SHADOW"));
  Str(1, "aGVsbG8=");
  EXPECT_TRUE(Eval("b64(proc.name) = hello"));
  Str(1, "not base64!");
  EXPECT_FALSE(Eval("b64(proc.name) exists")) << "text that does not decode has no value";
}

TEST_F(FilterProgramTest, FieldsComparedWithFields) {
  EXPECT_FALSE(Eval("proc.name = val(proc.pname)"));
  Str(2, "bash");
  EXPECT_TRUE(Eval("proc.name = val(proc.pname)"));
  EXPECT_TRUE(Eval("proc.pid > val(proc.ppid)"));
  Str(2, "BASH");
  EXPECT_TRUE(Eval("proc.name = tolower(proc.pname)"));
  reader_.values.erase(2);
  EXPECT_FALSE(Eval("proc.name != val(proc.pname)")) << "a missing right side fails too";
}

TEST_F(FilterProgramTest, IndexedFieldsAreDistinctFields) {
  EXPECT_TRUE(Eval("proc.aname[0] = systemd"));
  EXPECT_FALSE(Eval("proc.aname[1] exists"));
}

TEST_F(FilterProgramTest, ErrorsNameThePlaceAndTheReason) {
  EXPECT_EQ(CompileError("proc.nam = x"), "line 1, column 1: no field 'proc.nam'");
  EXPECT_EQ(
      CompileError("evt.type = open and proc.pid contains 3"),
      "line 1, column 21: 'contains' does not apply to proc.pid, which is an unsigned number");
  EXPECT_EQ(CompileError("fd.connected < 3"),
            "line 1, column 1: '<' does not apply to fd.connected, which is a boolean");
  EXPECT_EQ(CompileError("proc.pid = -1"),
            "line 1, column 12: '-1' is not a number of 0 or more (proc.pid is an unsigned "
            "number)");
  EXPECT_EQ(CompileError("evt.res in (1, x)"),
            "line 1, column 16: 'x' is not a number (evt.res is a signed number)");
  EXPECT_EQ(CompileError("fd.connected = yes"),
            "line 1, column 16: 'yes' is not true or false (fd.connected is a boolean)");
  EXPECT_EQ(CompileError("evt.buffer bcontains 7f4"),
            "line 1, column 22: '7f4' is not hexadecimal bytes (an even number of 0-9a-f digits) "
            "(evt.buffer is a string)");
  EXPECT_EQ(CompileError("proc.name regex \"a(\""),
            "line 1, column 17: regex 'a(' does not compile: missing ): a(");
  EXPECT_EQ(CompileError("spawned_process and proc.name = x"),
            "line 1, column 1: macro 'spawned_process' is not defined");
  EXPECT_EQ(CompileError("proc.name in shell_binaries"),
            "line 1, column 14: list 'shell_binaries' is not defined");
  EXPECT_EQ(CompileError("proc.name = val(proc.pid)"),
            "line 1, column 17: proc.name is a string but proc.pid is an unsigned number");
  EXPECT_EQ(
      CompileError("tolower(proc.pid) = 3"),
      "line 1, column 1: tolower() does not take an unsigned number values (tolower(proc.pid))");
  EXPECT_EQ(CompileError("proc.name glob val(proc.pname)"),
            "line 1, column 20: 'glob' does not take a field on its right");
}

TEST_F(FilterProgramTest, EmptyListsFoldToFalseAndGroupsFold) {
  FilterProgram program;
  auto add = [&](std::string_view text) {
    absl::StatusOr<ExprPtr> e = ParseCondition(text);
    EXPECT_TRUE(e.ok());
    return *program.Add(**e, resolver_);
  };
  const auto never = add("proc.name in ()");
  const auto always = add("not proc.name in () or proc.pid = 1");
  const auto same = add("proc.name = bash and proc.name = bash and (proc.name = bash)");
  // The two constants, `same` as a single comparison, and the proc.pid
  // comparison compiled before `or true` folded it away (never evaluated).
  EXPECT_EQ(program.node_count(), 4u);
  program.BeginEvent(reader_);
  EXPECT_FALSE(program.Matches(never));
  EXPECT_TRUE(program.Matches(always));
  EXPECT_TRUE(program.Matches(same));
  EXPECT_EQ(reader_.reads[1], 1) << "only `same` reads proc.name";
  EXPECT_EQ(reader_.reads[5], 0) << "folded away: proc.pid is never read";
}

TEST_F(FilterProgramTest, ConditionsShareFieldsAndSubexpressions) {
  FilterProgram program;
  // 1,000 rules on openat: one shared `evt.type = openat`, one slot per field.
  const std::string macro = "(evt.type = openat and fd.name startswith /)";
  std::vector<FilterProgram::ConditionId> ids;
  for (int i = 0; i < 1000; ++i) {
    absl::StatusOr<ExprPtr> e = ParseCondition(
        absl::StrCat(macro, " and proc.name = gen_proc_", i, " and not proc.pid in (1, 2)"));
    ASSERT_TRUE(e.ok());
    absl::StatusOr<FilterProgram::ConditionId> id = program.Add(**e, resolver_);
    ASSERT_TRUE(id.ok()) << id.status();
    ids.push_back(*id);
  }
  EXPECT_EQ(program.slot_count(), 4u);  // evt.type, fd.name, proc.name, proc.pid
  // Shared: the macro's two comparisons and its `and` (flattened into each
  // rule's), the `in` and its `not`; per rule: one comparison and one `and`.
  EXPECT_EQ(program.node_count(), 5u + 2 * 1000);
  for (int event = 0; event < 3; ++event) {
    program.BeginEvent(reader_);
    int matched = 0;
    for (const auto id : ids) matched += program.Matches(id);
    EXPECT_EQ(matched, 0);
  }
  Str(1, "gen_proc_7");
  program.BeginEvent(reader_);
  int matched = 0;
  for (const auto id : ids) matched += program.Matches(id);
  EXPECT_EQ(matched, 1);
  // Each field read at most once per event, however many rules use it, and
  // only when needed: proc.pid only in the event where a proc.name matched.
  EXPECT_EQ(reader_.reads[10], 4);
  EXPECT_EQ(reader_.reads[1], 4);
  EXPECT_EQ(reader_.reads[5], 1);
  EXPECT_EQ(program.field_reads(), 3u * 3u + 4u);
}

// The key predicates a rule index may look rules up by: a glob gives its
// literal start, else its literal end, else nothing; a glob without
// wildcards is an equality.
TEST_F(FilterProgramTest, GlobsKeyByTheirLiteralStartOrEnd) {
  struct Case {
    std::string condition;
    std::optional<KeyPredicate::Kind> kind;
    std::string value;
  };
  const std::vector<Case> cases = {
      {"fd.name glob '/etc/*.conf'", KeyPredicate::Kind::kPrefix, "/etc/"},
      {"fd.name glob '*.conf'", KeyPredicate::Kind::kSuffix, ".conf"},
      {"fd.name glob '*.[ch]'", std::nullopt, ""},
      {"fd.name glob '*x\\\\*'", std::nullopt, ""},
      {"fd.name glob '/etc/passwd'", KeyPredicate::Kind::kEquals, "/etc/passwd"},
      {"fd.name iglob '/etc/*'", std::nullopt, ""},  // case folded: no exact key
  };
  for (const Case& c : cases) {
    FilterProgram program;
    absl::StatusOr<ExprPtr> e = ParseCondition(c.condition);
    ASSERT_TRUE(e.ok()) << e.status();
    absl::StatusOr<FilterProgram::ConditionId> id = program.Add(**e, resolver_);
    ASSERT_TRUE(id.ok()) << id.status();
    const std::vector<KeyConjunct> keys =
        ProgramInspector::KeyConjuncts(program, *id, std::nullopt);
    if (!c.kind) {
      EXPECT_TRUE(keys.empty()) << c.condition;
      continue;
    }
    ASSERT_EQ(keys.size(), 1u) << c.condition;
    ASSERT_EQ(keys[0].alternatives.size(), 1u) << c.condition;
    EXPECT_EQ(keys[0].alternatives[0].kind, *c.kind) << c.condition;
    EXPECT_EQ(keys[0].alternatives[0].values, std::vector<std::string>{c.value}) << c.condition;
  }
}

// An `or` whose every branch is a key predicate is one conjunct of them
// all; one branch that is none makes the whole `or` none.
TEST_F(FilterProgramTest, AnOrOfKeyPredicatesIsOneConjunctOfAlternatives) {
  FilterProgram program;
  absl::StatusOr<ExprPtr> e = ParseCondition(
      "proc.name = sh and (fd.name in (/etc/shadow) or proc.pname = sudo) and "
      "(fd.name startswith /tmp or proc.pid > 3)");
  ASSERT_TRUE(e.ok()) << e.status();
  absl::StatusOr<FilterProgram::ConditionId> id = program.Add(**e, resolver_);
  ASSERT_TRUE(id.ok()) << id.status();
  const std::vector<KeyConjunct> keys = ProgramInspector::KeyConjuncts(program, *id, std::nullopt);
  ASSERT_EQ(keys.size(), 2u);
  ASSERT_EQ(keys[0].alternatives.size(), 1u);
  EXPECT_EQ(keys[0].alternatives[0].values, std::vector<std::string>{"sh"});
  ASSERT_EQ(keys[1].alternatives.size(), 2u);
  EXPECT_EQ(keys[1].alternatives[0].kind, KeyPredicate::Kind::kEquals);
  EXPECT_EQ(keys[1].alternatives[0].values, std::vector<std::string>{"/etc/shadow"});
  EXPECT_EQ(keys[1].alternatives[1].kind, KeyPredicate::Kind::kEquals);
  EXPECT_EQ(keys[1].alternatives[1].values, std::vector<std::string>{"sudo"});
}

// oneof: exactly one item holds; anyof: one or more; allof: every one.
TEST_F(FilterProgramTest, ModifiersCountTheItemsThatHold) {
  EXPECT_TRUE(Eval("proc.name startswith oneof (ba, zs)"));
  EXPECT_FALSE(Eval("proc.name startswith oneof (ba, b)")) << "two items hold";
  EXPECT_FALSE(Eval("proc.name startswith oneof (zs, k)")) << "none holds";
  EXPECT_TRUE(Eval("proc.name startswith anyof (ba, b, zz)"));
  EXPECT_FALSE(Eval("proc.name startswith anyof (zz, k)"));
  EXPECT_TRUE(Eval("fd.name contains allof (etc, sha, /)"));
  EXPECT_FALSE(Eval("fd.name contains allof (etc, passwd)"));
  EXPECT_TRUE(Eval("fd.name endswith anyof (.sh, dow)"));
  EXPECT_TRUE(Eval("fd.name glob oneof (/etc/*, /usr/*)"));
  EXPECT_FALSE(Eval("fd.name glob oneof (/etc/*, /*/shadow)"));
  EXPECT_TRUE(Eval("fd.name icontains allof (ETC, SHADOW)"));
  EXPECT_TRUE(Eval("proc.name regex anyof (\"z.*\", \"b[a-z]+\")"));
  EXPECT_TRUE(Eval("evt.buffer bstartswith anyof (00, 7f45)"));
  EXPECT_TRUE(Eval("proc.name startswith oneof (ba, ba, zz)") == false)
      << "a repeated item holds twice";
}

TEST_F(FilterProgramTest, EqualityModifiersAreSetLookups) {
  EXPECT_TRUE(Eval("proc.name = anyof (sh, bash)"));
  EXPECT_FALSE(Eval("proc.name = anyof (sh, zsh)"));
  EXPECT_TRUE(Eval("proc.name != allof (sh, zsh)"));
  EXPECT_FALSE(Eval("proc.name != allof (sh, bash)"));
  EXPECT_TRUE(Eval("proc.name != anyof (bash, sh)")) << "it differs from sh";
  EXPECT_FALSE(Eval("proc.name = allof (bash, sh)"));
  EXPECT_TRUE(Eval("proc.name == oneof (bash, sh)"));
  EXPECT_TRUE(Eval("evt.res = anyof (-1, -13)"));
  EXPECT_TRUE(Eval("proc.pid != allof (1, 2)"));
  EXPECT_TRUE(Eval("proc.pid = oneof (4242, 0x1092)") == false) << "both items are 4242";
  EXPECT_TRUE(Eval("fd.connected = anyof (true)"));
  EXPECT_TRUE(Eval("fd.sip = anyof (10.0.0.1, 10.1.2.3)"));
  EXPECT_TRUE(Eval("proc.anames = anyof (zsh, sshd)")) << "some ancestor's name";
  EXPECT_FALSE(Eval("proc.name = anyof ()")) << "an empty list: no item holds";
  EXPECT_FALSE(Eval("proc.name != allof ()"));
}

// Without a list after it, the word is a value, as in Falco.
TEST_F(FilterProgramTest, AModifierWordWithoutAListIsAValue) {
  Str(1, "anyof");
  EXPECT_TRUE(Eval("proc.name = anyof"));
  EXPECT_TRUE(Eval("proc.name = anyof and proc.pid = 4242"));
  EXPECT_TRUE(Eval("proc.name = x or proc.name = anyof"));
  EXPECT_TRUE(Eval("proc.name contains anyof"));
}

TEST_F(FilterProgramTest, ModifiersAreRefusedWhereFalcoRefusesThem) {
  EXPECT_NE(CompileError("proc.args = anyof (a, b)"), "compiled") << "a list field";
  EXPECT_NE(CompileError("proc.pid contains anyof (1, 2)"), "compiled");
  EXPECT_NE(CompileError("proc.pid = anyof (1, x)"), "compiled");
  EXPECT_NE(CompileError("fd.sip startswith anyof (10.0.0.1)"), "compiled");
  EXPECT_NE(CompileError("proc.name in anyof (a)"), "compiled") << "only after string operators";
  EXPECT_NE(CompileError("proc.pid > anyof (1)"), "compiled");
}

TEST_F(FilterProgramTest, JoinAndConcatMakeOneString) {
  EXPECT_TRUE(Eval("concat(proc.name, \"-\", proc.pname) = bash-sshd"));
  EXPECT_TRUE(Eval("concat(\"a\", \"b\", \"c\") = abc"));
  EXPECT_TRUE(Eval("join(\",\", proc.args) = \"-c,curl http://x\""));
  EXPECT_TRUE(Eval("join(\"/\", (proc.pname, proc.name, \"x\")) = sshd/bash/x"));
  EXPECT_TRUE(Eval("join(\"-\", (proc.pid, evt.res, fd.connected)) = 4242--13-true"))
      << "numbers and booleans join as their text";
  EXPECT_TRUE(Eval("join(proc.pid, (\"a\", \"b\")) = a4242b")) << "a field as the separator";
  EXPECT_TRUE(Eval("join(\"-\", ()) = \"\""));
  EXPECT_TRUE(Eval("join(\"-\", (\"a\")) = a"));
  EXPECT_TRUE(Eval("join(\"+\", (proc.args, proc.name)) = \"-c+curl http://x+bash\""))
      << "a list inside a list is flattened";
  EXPECT_TRUE(Eval("toupper(concat(proc.name, fd.name)) = BASH/ETC/SHADOW"));
  EXPECT_TRUE(Eval("len(join(\"--\", (proc.name, proc.pname))) = 10"));
  EXPECT_TRUE(Eval("concat(basename(fd.name), join(\".\", (\"x\", \"y\"))) = shadowx.y"));
  EXPECT_TRUE(Eval("proc.name = concat(\"ba\", \"sh\")")) << "on the right of an operator";
  EXPECT_TRUE(Eval("fd.name startswith concat(\"/\", \"etc\")"));
  EXPECT_TRUE(Eval("len((proc.name, proc.pname, \"x\")) = 3"));
  EXPECT_FALSE(Eval("concat(proc.name, proc.cwd) exists")) << "an absent argument: no value";
  EXPECT_TRUE(Eval("b64(concat(\"YmFz\", \"aA==\")) = bash"));
}

TEST_F(FilterProgramTest, GetoptReadsOptionsAsGetoptDoes) {
  const std::vector<std::string_view> argv = {"-lp", "8080", "-e/bin/sh", "-x", "host", "-q"};
  reader_.values[8].items = argv;
  EXPECT_TRUE(Eval("getopt(proc.args, \"lp:e:q\") intersects (\"8080\")"));
  EXPECT_TRUE(Eval("getopt(proc.args, \"lp:e:q\") in (l, p, \"8080\", e, /bin/sh, \"?\")"))
      << "every option and value, an unknown one as ?; reading stops at host";
  EXPECT_FALSE(Eval("getopt(proc.args, \"lp:e:q\") intersects (q)")) << "after a non-option";
  EXPECT_TRUE(Eval("getopt(proc.args, \"lp:e:q\")[e] = /bin/sh"));
  EXPECT_TRUE(Eval("getopt(proc.args, \"lp:e:q\")[l] = l")) << "an option without a value";
  EXPECT_FALSE(Eval("getopt(proc.args, \"lp:e:q\")[q] exists"));
  EXPECT_TRUE(Eval("len(getopt(proc.args, \"lp:e:q\")) = 6"));
  EXPECT_TRUE(Eval("getopt((\"-t\", \"a\", \"-t\", \"b\"), \"t:\")[t] = b")) << "the last one";
  EXPECT_TRUE(Eval("getopt((\"-t\"), \"t:\") intersects (\"\")")) << "a missing value";
  EXPECT_FALSE(Eval("getopt((\"-t\"), \"t:\") intersects (t)"));
  EXPECT_TRUE(Eval("getopt((\"-a\", \"--\", \"-b\"), \"ab\") in (a)"));
  EXPECT_TRUE(Eval("getopt((\"--long\", \"-b\"), \"ab\") in (b)")) << "long options skipped";
  EXPECT_TRUE(Eval("getopt((\"-\", \"-b\"), \"ab\") in ()")) << "a lone - ends the options";
  EXPECT_TRUE(Eval("getopt((\"-abcvalue\"), \"abc:\") in (a, b, c, value)"));
  EXPECT_TRUE(Eval("getopt((\"-:\"), \":a\") in (\"?\")")) << "':' is never an option";
}

TEST_F(FilterProgramTest, CombinersCheckTheirArguments) {
  EXPECT_NE(CompileError("join(\"-\") = x"), "compiled");
  EXPECT_NE(CompileError("join(\"-\", proc.name) = x"), "compiled") << "not a list";
  EXPECT_NE(CompileError("join(proc.args, proc.args) = x"), "compiled") << "a list separator";
  EXPECT_NE(CompileError("join(\"-\", (\"a\"), (\"b\")) = x"), "compiled");
  EXPECT_NE(CompileError("concat(\"a\") = x"), "compiled");
  EXPECT_NE(CompileError("concat(proc.name, proc.pid) = x"), "compiled") << "strings only";
  EXPECT_NE(CompileError("concat(proc.args, \"a\") = x"), "compiled");
  EXPECT_NE(CompileError("getopt(proc.name, \"a\") in (a)"), "compiled");
  EXPECT_NE(CompileError("getopt(proc.args, (\"a\")) in (a)"), "compiled");
  EXPECT_NE(CompileError("getopt(proc.args, \"a\")[ab] = x"), "compiled");
  EXPECT_NE(CompileError("getopt(proc.args, \"a\") = x"), "compiled") << "a list is no string";
  EXPECT_NE(CompileError("concat(proc.anames, \"a\") = x"), "compiled") << "several values";
  EXPECT_EQ(CompileError("tolower(proc.name)[1] = x"),
            "parse error: line 1, column 19: tolower() takes no [argument]");
  EXPECT_EQ(CompileError("tolower(proc.name, proc.pname) = x"),
            "parse error: line 1, column 1: tolower() takes one argument, not 2");
  EXPECT_NE(CompileError("frob(proc.name) = x").find("unknown transformer 'frob'"),
            std::string::npos);
}

// A combination used twice is made once per event.
TEST_F(FilterProgramTest, ACombinationIsOneSlot) {
  FilterProgram program;
  for (const char* c : {"concat(proc.name, \"x\") = bashx", "concat(proc.name, \"x\") != y"}) {
    absl::StatusOr<ExprPtr> e = ParseCondition(c);
    ASSERT_TRUE(e.ok()) << e.status();
    ASSERT_TRUE(program.Add(**e, resolver_).ok());
  }
  EXPECT_EQ(program.slot_count(), 3u) << "proc.name, \"x\", and the concat";
  program.BeginEvent(reader_);
  EXPECT_TRUE(program.Matches(0));
  EXPECT_TRUE(program.Matches(1));
  EXPECT_EQ(reader_.reads[1], 1);
}

}  // namespace
}  // namespace kestrel::engine::filter
