// The lines of the Docker API's event stream the metadata cache acts on,
// as Podman's compatible API and Docker write them.
#include "engine/containers/docker_events.h"

#include <gtest/gtest.h>

#include <string>

namespace kestrel::engine::containers {
namespace {

const std::string kId(64, 'a');

TEST(DockerEventsTest, PodmanCreateAndRemove) {
  const std::string create = R"({"status":"create","id":")" + kId +
                             R"(","from":"localhost/app:1","Type":"container","Action":"create",)"
                             R"("Actor":{"ID":")" +
                             kId + R"(","Attributes":{"image":"localhost/app:1","name":"web"}}})";
  std::optional<ContainerEvent> e = ParseDockerEvent(create);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->action, "create");
  EXPECT_EQ(e->id, kId);
  e = ParseDockerEvent(R"({"status":"remove","id":")" + kId + R"(","Type":"container"})");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->action, "remove");
}

TEST(DockerEventsTest, DockerShapeWithActorOnly) {
  const std::optional<ContainerEvent> e = ParseDockerEvent(
      R"({"Type":"container","Action":"destroy","Actor":{"ID":")" + kId + R"("},"time":1})");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->action, "destroy");
  EXPECT_EQ(e->id, kId);
}

TEST(DockerEventsTest, OtherLinesAreIgnored) {
  EXPECT_FALSE(ParseDockerEvent(""));
  EXPECT_FALSE(ParseDockerEvent("not json {"));
  EXPECT_FALSE(ParseDockerEvent("[1, 2]"));
  EXPECT_FALSE(ParseDockerEvent(R"({"Type":"image","Action":"pull","id":")" + kId + R"("})"));
  EXPECT_FALSE(ParseDockerEvent(R"({"Type":"container","Action":"create","id":"short"})"));
  EXPECT_FALSE(ParseDockerEvent(R"({"Type":"container","id":")" + kId + R"("})"));
  // A label cannot pose as the event's id.
  EXPECT_FALSE(ParseDockerEvent(R"({"Type":"container","Action":"remove","Actor":{"Attributes":)"
                                R"({"id":")" +
                                kId + R"("}}})"));
}

}  // namespace
}  // namespace kestrel::engine::containers
