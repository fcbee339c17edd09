/* A shared library named like a plugin that exports no porta_plugin_get_api. */
int porta_test_not_a_plugin(void) { return 42; }
