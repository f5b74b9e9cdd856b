/*
 * chdb-server: a real ClickHouse server for the tests, from the engine the `chdb` npm package already ships.
 *
 * libchdb.so holds clickhouse-local, which serves ClickHouse's own HTTP and native interfaces while its query list
 * runs. This launcher loads the library, passes its own arguments (after the library's path) to the entry point
 * query_stable_v2 as clickhouse-local options (--path, --http_port, --tcp_port, --listen_host, --config-file, ...),
 * and gives it a query list that starts listening and then waits: the server runs until the process is killed.
 *
 *   chdb-server <path to libchdb.so> --path=DIR --http_port=N --tcp_port=M --listen_host=127.0.0.1
 *
 * Built by scripts/build-chdb-server.sh; started by bench/clickhouse-server.ts. See docs/development.md, "Tests".
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* chdb.h's struct local_result_v2, of which only the error is read. */
struct local_result_v2 {
  char *buf;
  size_t len;
  void *vec;
  double elapsed;
  unsigned long long rows_read;
  unsigned long long bytes_read;
  char *error_message;
};
typedef struct local_result_v2 *(*query_stable_v2_fn)(int argc, char **argv);

/* Listen, then wait one second per row of a list that outlasts any test run (about 31,700 years). */
static char SERVE[] =
    "--query=SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; "
    "SELECT sleepEachRow(1) FROM numbers(1000000000000) SETTINGS max_block_size = 1 FORMAT Null";
static char MULTIQUERY[] = "--multiquery";
static char PROGRAM[] = "clickhouse";

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: chdb-server <path to libchdb.so> [clickhouse-local options]\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (lib == NULL) {
    fprintf(stderr, "chdb-server: %s\n", dlerror());
    return 2;
  }
  query_stable_v2_fn query = (query_stable_v2_fn)dlsym(lib, "query_stable_v2");
  if (query == NULL) {
    fprintf(stderr, "chdb-server: %s has no query_stable_v2: %s\n", argv[1], dlerror());
    return 2;
  }
  int count = argc + 1; /* the program's name, the options after the library, --multiquery, --query */
  char **args = calloc((size_t)count + 1, sizeof(char *));
  if (args == NULL) {
    return 2;
  }
  int n = 0;
  args[n++] = PROGRAM;
  for (int i = 2; i < argc; i++) {
    args[n++] = argv[i];
  }
  args[n++] = MULTIQUERY;
  args[n++] = SERVE;
  struct local_result_v2 *result = query(n, args);
  if (result == NULL || result->error_message != NULL) {
    fprintf(stderr, "chdb-server: %s\n", result == NULL ? "the engine returned no result" : result->error_message);
    return 1;
  }
  return 0;
}
