"""Reads every Avro container file a load wrote with fastavro, an Avro implementation independent of
the Java one that wrote them, and prints what it found.

Usage: read_loaded.py DATA_ROOT HEADER_FIELD TIME_FIELD
Prints one line per file, "file<TAB>directory<TAB>codec<TAB>schema name<TAB>records", then one line per
event, "event<TAB>directory<TAB>payload<TAB>event time", the directory relative to DATA_ROOT.
"""
import os
import sys

import fastavro


def main(root, header_field, time_field):
    for directory, _, names in sorted(os.walk(root)):
        for name in sorted(n for n in names if n.endswith(".avro")):
            relative = os.path.relpath(directory, root)
            with open(os.path.join(directory, name), "rb") as file:
                reader = fastavro.reader(file)
                events = list(reader)
                print("file\t%s\t%s\t%s\t%d" % (relative, reader.codec, reader.writer_schema["name"], len(events)))
                for event in events:
                    print("event\t%s\t%s\t%d" % (relative, event["payload"], event[header_field][time_field]))


if __name__ == "__main__":
    main(*sys.argv[1:4])
