// The condition parser: precedence, every operator, lists, field arguments,
// transformers, quoting, and an error (with its line and column) for each
// way a condition can be malformed.
#include "engine/filter/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace kestrel::engine::filter {
namespace {

// The condition printed back fully parenthesised, or the parse error.
std::string Canonical(std::string_view text) {
  absl::StatusOr<ExprPtr> e = ParseCondition(text);
  if (!e.ok()) return "error: " + std::string(e.status().message());
  return ToString(**e);
}

const Comparison& OnlyComparison(const ExprPtr& e) { return std::get<Comparison>(e->node); }

ExprPtr MustParse(std::string_view text) {
  absl::StatusOr<ExprPtr> e = ParseCondition(text);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status();
  return e.ok() ? *std::move(e) : nullptr;
}

TEST(FilterParserTest, NotBindsTighterThanAndWhichBindsTighterThanOr) {
  EXPECT_EQ(Canonical("a.b = 1 or c.d = 2 and not e.f exists"),
            "(a.b = 1 or (c.d = 2 and not e.f exists))");
  EXPECT_EQ(Canonical("(a.b = 1 or c.d = 2) and e.f = 3"), "((a.b = 1 or c.d = 2) and e.f = 3)");
  EXPECT_EQ(Canonical("not not a.b = 1"), "not not a.b = 1");
  EXPECT_EQ(Canonical("not(a.b = 1)and(c.d = 2)"), "(not a.b = 1 and c.d = 2)");
}

TEST(FilterParserTest, AndAndOrChainsAreFlat) {
  ExprPtr e = MustParse("a.b = 1 and c.d = 2 and e.f = 3");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(std::get<And>(e->node).operands.size(), 3u);
}

TEST(FilterParserTest, EveryOperatorParses) {
  struct Case {
    const char* text;
    CompareOp op;
  };
  const Case cases[] = {
      {"proc.name = sh", CompareOp::kEq},
      {"proc.name == sh", CompareOp::kEq},
      {"proc.name != sh", CompareOp::kNe},
      {"evt.res < 0", CompareOp::kLt},
      {"evt.res <= 0", CompareOp::kLe},
      {"evt.res > 0", CompareOp::kGt},
      {"evt.res >= 0", CompareOp::kGe},
      {"proc.cmdline contains -i", CompareOp::kContains},
      {"proc.cmdline icontains MINER", CompareOp::kIContains},
      {"evt.buffer bcontains 7f454c46", CompareOp::kBContains},
      {"fd.name startswith /etc/", CompareOp::kStartsWith},
      {"evt.buffer bstartswith 7f45", CompareOp::kBStartsWith},
      {"fd.name endswith .so", CompareOp::kEndsWith},
      {"fd.name glob /tmp/*.sh", CompareOp::kGlob},
      {"fd.name iglob /TMP/*", CompareOp::kIGlob},
      {"proc.name regex \"^x[0-9]+$\"", CompareOp::kRegex},
      {"proc.name in (sh, bash)", CompareOp::kIn},
      {"proc.args intersects (a, b)", CompareOp::kIntersects},
      {"fd.name pmatch (/etc, /usr/bin)", CompareOp::kPmatch},
      {"fd.name exists", CompareOp::kExists},
  };
  for (const Case& c : cases) {
    ExprPtr e = MustParse(c.text);
    ASSERT_NE(e, nullptr) << c.text;
    EXPECT_EQ(OnlyComparison(e).op, c.op) << c.text;
  }
}

TEST(FilterParserTest, SymbolOperatorsNeedNoBlanks) {
  EXPECT_EQ(Canonical("fd.name=/etc/passwd"), "fd.name = /etc/passwd");
  EXPECT_EQ(Canonical("evt.res>=0"), "evt.res >= 0");
  EXPECT_EQ(Canonical("proc.pid!=1"), "proc.pid != 1");
}

TEST(FilterParserTest, WordOperatorsMustEndWhereTheWordEnds) {
  // "inx" is no operator: `in` is not matched inside a longer word.
  EXPECT_EQ(Canonical("proc.name inx (a)"),
            "error: line 1, column 11: expected an operator after proc.name (=, !=, <, <=, >, >=, "
            "contains, icontains, bcontains, startswith, bstartswith, endswith, glob, iglob, "
            "regex, in, intersects, pmatch, exists), found 'inx (a)'");
}

TEST(FilterParserTest, ListsKeepItemsInOrderAndFlattenNestedLists) {
  ExprPtr e = MustParse("proc.name in (a, \"b c\", 3, (d, (e)), 'f')");
  ASSERT_NE(e, nullptr);
  const auto& items = std::get<std::vector<Literal>>(OnlyComparison(e).operand.value);
  ASSERT_EQ(items.size(), 6u);
  const char* expected[] = {"a", "b c", "3", "d", "e", "f"};
  for (size_t i = 0; i < items.size(); ++i) EXPECT_EQ(items[i].text, expected[i]);
  EXPECT_FALSE(items[0].quoted);
  EXPECT_TRUE(items[1].quoted);
  EXPECT_TRUE(items[5].quoted);
}

TEST(FilterParserTest, EmptyListIsAllowed) {
  // A rules file's empty user list substitutes to this.
  ExprPtr e = MustParse("proc.name in ()");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(std::get<std::vector<Literal>>(OnlyComparison(e).operand.value).empty());
}

TEST(FilterParserTest, BareNameAfterListOperatorIsAListReference) {
  ExprPtr e = MustParse("proc.name in shell_binaries");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(std::get<ListRef>(OnlyComparison(e).operand.value).name, "shell_binaries");
}

TEST(FilterParserTest, FieldArguments) {
  ExprPtr e = MustParse("proc.aname[2] = bash");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(OnlyComparison(e).field.name, "proc.aname");
  EXPECT_EQ(OnlyComparison(e).field.index, "2");
  e = MustParse("evt.arg[0] = 3");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(OnlyComparison(e).field.index, "0");
  e = MustParse("container.label[\"io.kubernetes pod\"] exists");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(OnlyComparison(e).field.index, "io.kubernetes pod");
  e = MustParse("evt.arg.name contains /tmp");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(OnlyComparison(e).field.name, "evt.arg.name");
  EXPECT_FALSE(OnlyComparison(e).field.index.has_value());
}

TEST(FilterParserTest, TransformersWrapFieldsInnermostFirst) {
  ExprPtr e = MustParse("tolower(basename(fd.name)) = passwd");
  ASSERT_NE(e, nullptr);
  const FieldRef& f = OnlyComparison(e).field;
  EXPECT_EQ(f.name, "fd.name");
  ASSERT_EQ(f.transformers.size(), 2u);
  EXPECT_EQ(f.transformers[0], Transformer::kBasename);
  EXPECT_EQ(f.transformers[1], Transformer::kToLower);
  EXPECT_EQ(Canonical("len( proc.args ) > 100"), "len(proc.args) > 100");
  EXPECT_EQ(Canonical("b64(evt.buffer) contains abc"), "b64(evt.buffer) contains abc");
  EXPECT_EQ(Canonical("toupper(proc.name) = SH"), "toupper(proc.name) = SH");
}

TEST(FilterParserTest, FieldsOnTheRightThroughValOrATransformer) {
  ExprPtr e = MustParse("proc.name = val(proc.pname)");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(std::get<FieldRef>(OnlyComparison(e).operand.value).name, "proc.pname");
  EXPECT_EQ(Canonical("proc.name = val(proc.aname[1])"), "proc.name = val(proc.aname[1])");
  EXPECT_EQ(Canonical("proc.name = tolower(proc.pname)"), "proc.name = tolower(proc.pname)");
  EXPECT_EQ(Canonical("proc.pid > val(proc.ppid)"), "proc.pid > val(proc.ppid)");
}

TEST(FilterParserTest, MacrosAreNamesWithoutADot) {
  ExprPtr e = MustParse("spawned_process and not container");
  ASSERT_NE(e, nullptr);
  const And& a = std::get<And>(e->node);
  EXPECT_EQ(std::get<MacroRef>(a.operands[0]->node).name, "spawned_process");
  EXPECT_EQ(std::get<MacroRef>(std::get<Not>(a.operands[1]->node).operand->node).name, "container");
}

TEST(FilterParserTest, QuotedStringsResolveTheirEscapes) {
  auto text_of = [](std::string_view condition) {
    ExprPtr e = MustParse(condition);
    return e ? std::get<Literal>(OnlyComparison(e).operand.value).text : std::string("?");
  };
  EXPECT_EQ(text_of(R"(proc.name = "a\"b")"), "a\"b");
  EXPECT_EQ(text_of(R"(proc.name = 'it\'s')"), "it's");
  EXPECT_EQ(text_of(R"(proc.name = "tab\there")"), "tab\there");
  EXPECT_EQ(text_of(R"(proc.name = "back\\slash\/")"), "back\\slash/");
  EXPECT_EQ(text_of(R"(proc.name = "\x41\x7a")"), "Az");
  EXPECT_EQ(text_of(R"(proc.name = "a'b")"), "a'b");
  EXPECT_EQ(text_of("proc.name = \"\""), "");
  // Falco's reading of a backslash before a space: one backslash.
  EXPECT_EQ(text_of(R"(proc.args contains "\ ")"), "\\");
}

TEST(FilterParserTest, ConditionsMaySpanLines) {
  ExprPtr e = MustParse("evt.type = openat\n  and fd.name startswith /etc\n");
  ASSERT_NE(e, nullptr);
  const And& a = std::get<And>(e->node);
  EXPECT_EQ(a.operands[1]->pos.line, 2u);
  EXPECT_EQ(a.operands[1]->pos.column, 7u);
}

TEST(FilterParserTest, ErrorsSayWhereWhatWasExpectedAndWhatWasFound) {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"", "line 1, column 1: the condition is empty"},
      {"   ", "line 1, column 4: the condition is empty"},
      {"proc.name sh",
       "line 1, column 11: expected an operator after proc.name (=, !=, <, <=, >, >=, contains, "
       "icontains, bcontains, startswith, bstartswith, endswith, glob, iglob, regex, in, "
       "intersects, pmatch, exists), found 'sh'"},
      {"proc.name = ",
       "line 1, column 13: expected a value after '=', found the end of the condition"},
      {"(proc.name = sh",
       "line 1, column 16: expected ')' closing the '(' at line 1, column 1, found the end of the "
       "condition"},
      {"proc.name in (a, b",
       "line 1, column 19: expected ',' or ')' in the list opened at line 1, column 14, found the "
       "end of the condition"},
      {"proc.name in (a b)",
       "line 1, column 17: expected ',' or ')' in the list opened at line 1, column 14, found "
       "'b)'"},
      {"proc.name in (a,)", "line 1, column 17: expected a list item, found ')'"},
      {"and proc.name = x",
       "line 1, column 1: expected a field check, a macro name, 'not' or '(', found 'and'"},
      {"proc.name = x foo",
       "line 1, column 15: expected 'and', 'or' or the end of the condition, found 'foo'"},
      {"proc.name = x and",
       "line 1, column 18: expected a field check, a macro name, 'not' or '(', found the end of "
       "the condition"},
      {"frob(proc.name) = x",
       "line 1, column 1: unknown transformer 'frob' (known: tolower, toupper, b64, basename, len, "
       "join, concat, getopt; "
       "val() only right of an operator)"},
      {"val(proc.name) = x",
       "line 1, column 1: unknown transformer 'val' (known: tolower, toupper, b64, basename, len, "
       "join, concat, getopt; "
       "val() only right of an operator)"},
      {"tolower(sh) = x",
       "line 1, column 9: expected a field, a transformer, a quoted string, a number or a list "
       "inside tolower(), found 'sh'"},
      {"tolower(proc.name = x",
       "line 1, column 19: expected ',' or ')' closing tolower(, found '= x'"},
      {"proc.name = val(sh)", "line 1, column 17: expected a field inside val(), found 'sh'"},
      {"evt.res > \"5\"", "line 1, column 11: '>' compares numbers; found the string \"5\""},
      {"proc.aname[2 = x",
       "line 1, column 13: expected ']' after the argument of proc.aname, found ' = x'"},
      {"proc.aname[] = x",
       "line 1, column 12: expected an argument of proc.aname inside [ ], found '] = x'"},
      {"proc.name in 3",
       "line 1, column 14: expected a list '(a, b, ...)' or a list name, found '3'"},
      {"proc.name = \"abc", "line 1, column 13: string opened with \" is never closed"},
      {R"(proc.name = "a\qb")",
       R"(line 1, column 15: unknown escape \q (known: \\ \/ \b \f \n \r \t \xHH \"))"},
      {R"(proc.name = "a\'b")", R"(line 1, column 15: \' in a "-quoted string)"},
      {R"(proc.name = "\x4g")", R"(line 1, column 14: \x needs two hexadecimal digits)"},
      {"evt.type = open\nand = x",
       "line 2, column 5: expected a field check, a macro name, 'not' or '(', found '= x'"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Canonical(c.text), std::string("error: ") + c.error) << "condition: " << c.text;
  }
}

TEST(FilterParserTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep(5000, '(');
  deep += "proc.name = x";
  deep += std::string(5000, ')');
  EXPECT_NE(Canonical(deep).find("nests deeper than 200 levels"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "not ";
  EXPECT_NE(Canonical(nots + "a.b exists").find("nests deeper than"), std::string::npos);
}

TEST(FilterParserTest, PrintedConditionsParseBackToTheSameTree) {
  const char* conditions[] = {
      "evt.type in (execve, execveat) and evt.dir = < and not proc.pname in (sshd, \"my shell\")",
      "fd.name startswith \"/etc/\" and (proc.name = 'a b' or proc.cmdline contains \"x=1\")",
      "tolower(proc.name) = val(proc.pname) or len(proc.args) >= 3",
      "proc.name = \"quote\\\"d\" and fd.name pmatch (/a, \"/b c\", /d)",
      "macro_one and not (macro_two or proc.aname[3] exists)",
  };
  for (const char* c : conditions) {
    const std::string once = Canonical(c);
    ASSERT_EQ(once.rfind("error", 0), std::string::npos) << c << " -> " << once;
    EXPECT_EQ(Canonical(once), once) << c;
  }
}

TEST(FilterParserTest, CloneMakesAnEqualIndependentTree) {
  ExprPtr e = MustParse("a.b in (x, y) and not (m or c.d = val(e.f))");
  ASSERT_NE(e, nullptr);
  ExprPtr copy = Clone(*e);
  EXPECT_EQ(ToString(*copy), ToString(*e));
  std::get<Comparison>(std::get<And>(copy->node).operands[0]->node).field.name = "z.z";
  EXPECT_NE(ToString(*copy), ToString(*e));
}

TEST(FilterParserTest, ModifiersAndCombinersPrintBackAsWritten) {
  for (const char* text : {
           "proc.name startswith oneof (ba, \"d a\")",
           "proc.name != allof shell_binaries",
           "fd.name glob anyof (/tmp/*)",
           "concat(proc.name, \"-\", tolower(proc.pname)) = x",
           "getopt(proc.args, \"ab:\")[b] = 1",
           "len(join(\",\", (proc.name, 12, \"x\"))) > 0",
           "proc.name = concat(\"a\", proc.pname)",
       }) {
    const std::string once = Canonical(text);
    EXPECT_EQ(Canonical(once), once) << text;
  }
  EXPECT_EQ(Canonical("proc.name startswith oneof (ba, \"d a\")"),
            "proc.name startswith oneof (ba, \"d a\")");
  EXPECT_EQ(Canonical("getopt(proc.args,'ab:') [b] = 1"),
            "error: line 1, column 25: expected an operator after getopt(proc.args, \"ab:\") (=, "
            "!=, <, <=, >, >=, contains, "
            "icontains, bcontains, startswith, bstartswith, endswith, glob, iglob, regex, in, "
            "intersects, pmatch, exists), found '[b] = 1'");
  const ExprPtr e = MustParse("proc.name contains allof (a, b)");
  EXPECT_EQ(OnlyComparison(e).modifier, Modifier::kAllOf);
  EXPECT_EQ(OnlyComparison(MustParse("proc.name = allof")).modifier, Modifier::kNone);
  EXPECT_EQ(Canonical("proc.name =allof (a)"),
            "error: line 1, column 18: expected 'and', 'or' "
            "or the end of the condition, found '(a)'")
      << "a symbol operator needs a blank before its modifier, as in Falco";
  EXPECT_EQ(Canonical("len(join(\",\", (proc.name, (\"x\")))) > 0"),
            "error: line 1, column 27: expected a field, a transformer, a quoted string, a number "
            "inside join(), found '(\"x\")))) > 0'")
      << "no list inside a list";
}

}  // namespace
}  // namespace kestrel::engine::filter
