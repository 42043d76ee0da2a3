// The catalog holds every field issue 17 asks for, with Falco's types, and
// each one resolves.
#include "engine/fields/field_catalog.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "engine/fields/field_registry.h"

namespace kestrel::engine::fields {
namespace {

// Issue 17's list, as a condition names each field.
const char* const kRequired[] = {"evt.type",
                                 "evt.dir",
                                 "evt.num",
                                 "evt.time",
                                 "evt.time.s",
                                 "evt.time.iso8601",
                                 "evt.datetime",
                                 "evt.rawtime",
                                 "evt.res",
                                 "evt.rawres",
                                 "evt.failed",
                                 "evt.is_open_read",
                                 "evt.is_open_write",
                                 "evt.is_open_exec",
                                 "evt.arg.flags",
                                 "evt.arg[0]",
                                 "evt.rawarg.flags",
                                 "evt.args",
                                 "evt.buffer",
                                 "evt.count",
                                 "evt.category",
                                 "proc.name",
                                 "proc.pid",
                                 "proc.ppid",
                                 "proc.pname",
                                 "proc.pcmdline",
                                 "proc.exe",
                                 "proc.exepath",
                                 "proc.pexe",
                                 "proc.pexepath",
                                 "proc.aexepath[1]",
                                 "proc.cmdline",
                                 "proc.args",
                                 "proc.cwd",
                                 "proc.tty",
                                 "proc.sid",
                                 "proc.sname",
                                 "proc.vpid",
                                 "proc.loginuid",
                                 "proc.aname[2]",
                                 "proc.aname",
                                 "proc.apid[1]",
                                 "proc.duration",
                                 "proc.is_exe_writable",
                                 "proc.is_exe_from_memfd",
                                 "proc.is_exe_upper_layer",
                                 "proc.exe_ino",
                                 "proc.exe_ino.ctime",
                                 "proc.exe_ino.mtime",
                                 "proc.exe_ino.ctime_duration_proc_start",
                                 "proc.env",
                                 "proc.is_container_healthcheck",
                                 "thread.tid",
                                 "thread.vtid",
                                 "thread.cap_effective",
                                 "thread.cap_permitted",
                                 "user.uid",
                                 "user.name",
                                 "user.loginuid",
                                 "user.loginname",
                                 "group.gid",
                                 "group.name",
                                 "fd.num",
                                 "fd.type",
                                 "fd.typechar",
                                 "fd.name",
                                 "fd.nameraw",
                                 "fd.name_changed",
                                 "fd.connected",
                                 "fd.directory",
                                 "fd.filename",
                                 "fd.ip",
                                 "fd.cip",
                                 "fd.sip",
                                 "fd.lip",
                                 "fd.rip",
                                 "fd.port",
                                 "fd.cport",
                                 "fd.sport",
                                 "fd.lport",
                                 "fd.rport",
                                 "fd.l4proto",
                                 "fd.sockfamily",
                                 "fd.net",
                                 "fd.snet",
                                 "fd.cnet",
                                 "fd.is_server",
                                 "fd.sip.name",
                                 "fs.path.name",
                                 "fs.path.nameraw",
                                 "fs.path.source",
                                 "fs.path.target",
                                 "container.id",
                                 "container.name",
                                 "container.image",
                                 "container.image.repository",
                                 "container.image.tag",
                                 "container.privileged",
                                 "container.mounts",
                                 "container.start_ts",
                                 "k8s.ns.name",
                                 "k8s.pod.name"};

filter::FieldRef Ref(std::string_view text) {
  filter::FieldRef ref;
  const size_t bracket = text.find('[');
  ref.name = std::string(text.substr(0, bracket));
  if (bracket != std::string_view::npos) {
    ref.index = std::string(text.substr(bracket + 1, text.size() - bracket - 2));
  }
  return ref;
}

TEST(FieldCatalogTest, EveryRequiredFieldResolves) {
  FieldRegistry registry;
  for (const char* name : kRequired) {
    absl::StatusOr<filter::FieldSpec> spec = registry.Resolve(Ref(name));
    EXPECT_TRUE(spec.ok()) << name << ": " << spec.status();
  }
}

TEST(FieldCatalogTest, NamesAreUniqueAndDescribed) {
  std::set<std::string_view> names;
  for (const FieldDef& f : FieldCatalog()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_FALSE(f.description.empty()) << f.name;
    EXPECT_EQ(FindField(f.name), &f);
  }
  EXPECT_EQ(FindField("proc.nope"), nullptr);
}

TEST(FieldCatalogTest, FalcoTypes) {
  FieldRegistry registry;
  const auto type = [&](std::string_view name) { return registry.Resolve(Ref(name))->type; };
  EXPECT_EQ(type("proc.name"), filter::ValueType::kString);
  EXPECT_EQ(type("proc.pid"), filter::ValueType::kInt);
  EXPECT_EQ(type("evt.rawres"), filter::ValueType::kInt);
  EXPECT_EQ(type("fd.sport"), filter::ValueType::kUint);
  EXPECT_EQ(type("user.uid"), filter::ValueType::kUint);
  EXPECT_EQ(type("evt.failed"), filter::ValueType::kBool);
  EXPECT_EQ(type("proc.aname"), filter::ValueType::kString);
  EXPECT_EQ(type("proc.apid"), filter::ValueType::kInt);
  EXPECT_EQ(type("fd.ip"), filter::ValueType::kIpAddr);
  EXPECT_EQ(type("fd.sip"), filter::ValueType::kIpAddr);
  EXPECT_EQ(type("fd.net"), filter::ValueType::kIpNet);
  EXPECT_EQ(type("fd.snet"), filter::ValueType::kIpNet);
  EXPECT_EQ(type("fd.port"), filter::ValueType::kUint);
  EXPECT_EQ(type("container.start_ts"), filter::ValueType::kUint);
  EXPECT_EQ(type("container.privileged"), filter::ValueType::kBool);
  EXPECT_EQ(type("proc.is_container_healthcheck"), filter::ValueType::kBool);
  EXPECT_EQ(type("container.mounts"), filter::ValueType::kString);
  EXPECT_EQ(type("proc.aname[1]"), filter::ValueType::kString);
  EXPECT_EQ(type("evt.rawarg.flags"), filter::ValueType::kInt);
  EXPECT_EQ(type("evt.rawarg.path"), filter::ValueType::kString);
  EXPECT_EQ(type("evt.arg.flags"), filter::ValueType::kString);
}

// Falco's fields of several values: any ancestor, either end of a socket.
TEST(FieldCatalogTest, Multiplicity) {
  FieldRegistry registry;
  const auto many = [&](std::string_view name) {
    return registry.Resolve(Ref(name))->multiplicity;
  };
  EXPECT_EQ(many("proc.aname"), filter::Multiplicity::kAnyValue);
  EXPECT_EQ(many("proc.apid"), filter::Multiplicity::kAnyValue);
  EXPECT_EQ(many("proc.aexepath"), filter::Multiplicity::kAnyValue);
  EXPECT_EQ(many("proc.aname[1]"), filter::Multiplicity::kOne);
  EXPECT_EQ(many("fd.ip"), filter::Multiplicity::kEitherEnd);
  EXPECT_EQ(many("fd.port"), filter::Multiplicity::kEitherEnd);
  EXPECT_EQ(many("fd.net"), filter::Multiplicity::kEitherEnd);
  EXPECT_EQ(many("fd.sip"), filter::Multiplicity::kOne);
  EXPECT_EQ(many("proc.name"), filter::Multiplicity::kOne);
}

TEST(FieldCatalogTest, Classes) {
  EXPECT_EQ(FieldClass("proc.aname"), "proc");
  EXPECT_EQ(FieldClass("fs.path.name"), "fs.path");
  EXPECT_EQ(FieldClass("k8s.ns.name"), "k8s");
}

}  // namespace
}  // namespace kestrel::engine::fields
