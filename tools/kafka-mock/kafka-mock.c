/*
 * A Kafka-protocol test broker: librdkafka's mock cluster (Debian's librdkafka-dev), which kafkajs can
 * produce to, consume from and join groups on. The mock implements no CreateTopics, so topics are created
 * here. It keeps only a few MB per partition (older messages are dropped).
 *
 * usage: kafka-mock <brokers> <topic>:<partitions> [<topic>:<partitions> ...]
 * Prints the bootstrap servers on one line, then reads commands from stdin until EOF:
 *   down <broker-id>   take a broker down     up <broker-id>   bring it back
 */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t stop = 0;
static void on_signal(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <brokers> <topic>:<partitions> ...\n", argv[0]);
    return 2;
  }
  char errstr[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) { fprintf(stderr, "rd_kafka_new: %s\n", errstr); return 1; }
  rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, atoi(argv[1]));
  if (!mc) { fprintf(stderr, "mock cluster could not be created\n"); return 1; }
  for (int i = 2; i < argc; i++) {
    char *sep = strrchr(argv[i], ':');
    if (!sep) { fprintf(stderr, "bad topic spec %s\n", argv[i]); return 2; }
    *sep = '\0';
    rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mc, argv[i], atoi(sep + 1), 1);
    if (err) { fprintf(stderr, "topic %s: %s\n", argv[i], rd_kafka_err2str(err)); return 1; }
  }
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  printf("%s\n", rd_kafka_mock_cluster_bootstraps(mc));
  fflush(stdout);

  char line[128];
  while (!stop && fgets(line, sizeof line, stdin)) {
    int id;
    if (sscanf(line, "down %d", &id) == 1) rd_kafka_mock_broker_set_down(mc, id);
    else if (sscanf(line, "up %d", &id) == 1) rd_kafka_mock_broker_set_up(mc, id);
    printf("ok\n");
    fflush(stdout);
  }
  rd_kafka_mock_cluster_destroy(mc);
  rd_kafka_destroy(rk);
  return 0;
}
