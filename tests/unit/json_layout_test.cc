// FioJsonText: the JSON text in fio 3.33's layout (json.c's
// json_print_object / json_print_array), empty containers included.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "report/fio_report.h"

namespace iobench {
namespace {

using ojson = nlohmann::ordered_json;

TEST(JsonLayoutTest, EmptyObjectIsBraceEmptyLineBrace) {
  ojson doc;
  doc["global options"] = ojson::object();
  doc["jobs"] = ojson::array({{{"jobname", "a"}, {"job options", ojson::object()}}});
  EXPECT_EQ(FioJsonText(doc),
            "{\n"
            "  \"global options\" : {\n"
            "\n"
            "  },\n"
            "  \"jobs\" : [\n"
            "    {\n"
            "      \"jobname\" : \"a\",\n"
            "      \"job options\" : {\n"
            "\n"
            "      }\n"
            "    }\n"
            "  ]\n"
            "}\n");
}

TEST(JsonLayoutTest, EmptyArrayAsFioPrintsIt) {
  ojson doc;
  doc["notes"] = ojson::array();
  doc["e"] = ojson::array({ojson::object()});
  EXPECT_EQ(FioJsonText(doc),
            "{\n"
            "  \"notes\" : [\n"
            "\n"
            "  ],\n"
            "  \"e\" : [\n"
            "    {\n"
            "\n"
            "    }\n"
            "  ]\n"
            "}\n");
}

TEST(JsonLayoutTest, EmptyDocument) { EXPECT_EQ(FioJsonText(ojson::object()), "{\n\n}\n"); }

}  // namespace
}  // namespace iobench
