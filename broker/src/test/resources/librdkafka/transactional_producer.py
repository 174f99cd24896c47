"""librdkafka's transactional producer against a Millrace broker, which has no transactions:
init_transactions() must fail at once, as a fatal error that gives the broker's reason, rather than
retry until its timeout and report only that it timed out.

Usage: transactional_producer.py BOOTSTRAP
Prints one JSON line with what it saw; exits non-zero with a reason on stderr when a check fails.
"""
import json
import sys
import time

from confluent_kafka import KafkaException, Producer

TIMEOUT_S = 30


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def main():
    producer = Producer({"bootstrap.servers": sys.argv[1], "transactional.id": "payments"})
    start = time.time()
    try:
        producer.init_transactions(TIMEOUT_S)
        fail("init_transactions() succeeded on a broker without transactions")
    except KafkaException as e:
        error = e.args[0]
        took = time.time() - start
        if "transactions are not supported" not in error.str():
            fail("refused without the reason: %s" % error)
        if not error.fatal():
            fail("refused as a retriable error: %s" % error)
        if took >= TIMEOUT_S / 2:
            fail("refused after %.1f s, not at once: %s" % (took, error))
        print(json.dumps({"refused": error.name(), "fatal": True, "seconds": round(took, 2), "reason": error.str()}))


if __name__ == "__main__":
    main()
