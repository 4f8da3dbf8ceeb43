/* daemon/mcp/mcp_pending.c: the MCP 2026-07-28 requests not answered yet, by id. A string id
 * and an integer id with the same digits are two requests; an id that cannot be one (null, a
 * number with a fraction) is never recorded; a forgotten id is gone and forgetting it again
 * is harmless. */
#include <criterion/criterion.h>
#include <string.h>

#include "daemon/mcp/mcp_pending.h"

Test(mcp_pending, records_and_forgets_by_id) {
  upk_mcp_pending *p = upk_mcp_pending_new();
  json_t *one = json_integer(1), *one_s = json_string("1");
  cr_assert(upk_mcp_pending_empty(p));
  upk_mcp_pending_add(p, one, "tools/list");
  upk_mcp_pending_add(p, one_s, "resources/read");
  cr_assert(!upk_mcp_pending_empty(p));
  cr_assert_str_eq(upk_mcp_pending_method(p, one), "tools/list");
  cr_assert_str_eq(upk_mcp_pending_method(p, one_s), "resources/read");
  upk_mcp_pending_forget(p, one);
  cr_assert_null(upk_mcp_pending_method(p, one));
  cr_assert_str_eq(upk_mcp_pending_method(p, one_s), "resources/read");
  upk_mcp_pending_forget(p, one);
  upk_mcp_pending_forget(p, one_s);
  cr_assert(upk_mcp_pending_empty(p));
  json_decref(one);
  json_decref(one_s);
  upk_mcp_pending_free(p);
}

Test(mcp_pending, an_id_that_is_none_is_not_recorded) {
  upk_mcp_pending *p = upk_mcp_pending_new();
  json_t *null = json_null(), *real = json_real(1.5);
  upk_mcp_pending_add(p, null, "tools/call");
  upk_mcp_pending_add(p, real, "tools/call");
  upk_mcp_pending_add(p, NULL, "tools/call");
  cr_assert(upk_mcp_pending_empty(p));
  cr_assert_null(upk_mcp_pending_method(p, null));
  upk_mcp_pending_forget(p, real);
  json_decref(real);
  upk_mcp_pending_free(p);
  upk_mcp_pending_free(NULL);
}

Test(mcp_pending, a_second_record_replaces_the_first) {
  upk_mcp_pending *p = upk_mcp_pending_new();
  json_t *id = json_string("a");
  upk_mcp_pending_add(p, id, "tools/list");
  upk_mcp_pending_add(p, id, "prompts/list");
  cr_assert_str_eq(upk_mcp_pending_method(p, id), "prompts/list");
  upk_mcp_pending_forget(p, id);
  cr_assert(upk_mcp_pending_empty(p));
  json_decref(id);
  upk_mcp_pending_free(p);
}
