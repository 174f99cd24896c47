"""librdkafka's balanced consumer across the death of its group coordinator: two members of a
group read a topic of 3 replicas, committing after every batch; once a third of the records are
read and both members hold partitions, the script writes MARKER and the test kills the broker coordinating the group. The members
must keep their member ids (the next coordinator takes the group over with its generation), see
no rebalance, and read every record exactly once.

Usage: coordinator_kill.py BOOTSTRAP TOPIC PARTITIONS RECORDS MARKER
Prints one JSON line with what it saw; exits non-zero with a reason on stderr when a check fails.
"""
import json
import sys
import threading
import time

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def produce(bootstrap, topic, partitions, count):
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    errors = []
    for i in range(count):
        while True:
            try:
                producer.produce(topic, value=str(i).encode(), partition=i % partitions,
                                 on_delivery=lambda err, msg: err is not None and errors.append(err))
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    if producer.flush(60) != 0 or errors:
        fail("produce failed: %s" % errors[:3])


def main(bootstrap, topic, partitions, records, marker):
    group = topic + "-readers"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, partitions, 3)])[topic].result(30)
    produce(bootstrap, topic, partitions, records)

    reads = {}
    lock = threading.Lock()
    events = []
    member_ids = {}
    assigned = {}
    stop = threading.Event()
    errors = []

    def member(name):
        consumer = Consumer({
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "client.id": name,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            # longer than the broker's death takes to notice (its ZooKeeper session) and the takeover
            "session.timeout.ms": 30000,
            "heartbeat.interval.ms": 300,
        })
        consumer.subscribe([topic],
                           on_assign=lambda c, parts: events.append((time.time(), name, "assigned", len(parts))),
                           on_revoke=lambda c, parts: events.append((time.time(), name, "revoked", len(parts))),
                           on_lost=lambda c, parts: events.append((time.time(), name, "lost", len(parts))))
        try:
            while not stop.is_set():
                batch = [m for m in consumer.consume(100, 0.2) if m.error() is None]
                with lock:
                    for m in batch:
                        key = int(m.value())
                        reads[key] = reads.get(key, 0) + 1
                if batch:
                    try:
                        consumer.commit(asynchronous=False)
                    except Exception as e:  # the coordinator is gone: the next commit covers these
                        events.append((time.time(), name, "commit failed", str(e)[:80]))
                member_ids.setdefault(name, []).append(consumer.memberid())
                assigned[name] = len(consumer.assignment())
                time.sleep(0.05)  # some work per batch, so that the kill falls while both members read
        except Exception as e:
            errors.append("%s: %s" % (name, e))
        finally:
            consumer.close()

    threads = [threading.Thread(target=member, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    deadline = time.time() + 120
    while len(reads) < records // 3 or not all(assigned.get(n, 0) > 0 for n in ("a", "b")):
        if time.time() > deadline:
            stop.set()
            fail("read %d of %d before the kill" % (len(reads), records))
        time.sleep(0.05)
    ids_before = {name: ids[-1] for name, ids in member_ids.items()}
    marked = time.time()
    marked_reads = len(reads)
    with open(marker, "w") as f:
        f.write("%d\n" % marked_reads)
    deadline = time.time() + 150
    while len(reads) < records and time.time() < deadline:
        time.sleep(0.1)
    finished = time.time()
    stop.set()
    for t in threads:
        t.join(30)
    ids_after = {name: ids[-1] for name, ids in member_ids.items()}
    twice = sorted(k for k, v in reads.items() if v > 1)
    after_mark = [(round(t - marked, 1), n, e, x) for (t, n, e, x) in events if t > marked and t < finished]
    summary = {"records": len(reads), "read_at_mark": marked_reads, "read_twice": len(twice), "seconds_after_mark": round(finished - marked, 1),
               "ids_kept": ids_before == ids_after, "rebalance_events_after_mark":
                   [e for e in after_mark if e[2] != "commit failed"], "errors": errors}
    print(json.dumps(summary))
    if errors:
        fail("a member failed: %s" % errors)
    if len(reads) != records:
        fail("read %d of %d records" % (len(reads), records))
    if twice:
        fail("%d records read twice, the first %s" % (len(twice), twice[:5]))
    if ids_before != ids_after:
        fail("member ids changed: %s then %s" % (ids_before, ids_after))
    if summary["rebalance_events_after_mark"]:
        fail("rebalanced after the kill: %s" % summary["rebalance_events_after_mark"])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
