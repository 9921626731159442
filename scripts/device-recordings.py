#!/usr/bin/env python3
"""Turns the real recordings in samples/devices (FIT through fitparse, TCX through the
standard library's XML parser) into one CSV each, seconds,latitude,longitude,device_meters:
what the tracker corpus replays to set the tracker's distance beside the device's own.
Usage: scripts/device-recordings.py [samples/devices]  (needs: pip install fitparse)"""
import csv
import os
import sys
import xml.etree.ElementTree as ElementTree
from datetime import datetime

SEMICIRCLES = 180 / 2**31


def fit_points(path):
    import fitparse  # only FIT needs it

    points = []
    for record in fitparse.FitFile(path).get_messages("record"):
        values = record.get_values()
        lat, lon, meters, time = (values.get(k) for k in ("position_lat", "position_long", "distance", "timestamp"))
        if None in (lat, lon, meters, time):
            continue
        points.append((time.timestamp(), lat * SEMICIRCLES, lon * SEMICIRCLES, meters))
    return points


def tcx_points(path):
    ns = {"t": "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"}
    points = []
    for point in ElementTree.parse(path).getroot().iterfind(".//t:Trackpoint", ns):
        time, lat, lon, meters = (point.find(p, ns) for p in (
            "t:Time", "t:Position/t:LatitudeDegrees", "t:Position/t:LongitudeDegrees", "t:DistanceMeters"))
        if None in (time, lat, lon, meters):
            continue
        stamp = datetime.fromisoformat(time.text.replace("Z", "+00:00")).timestamp()
        points.append((stamp, float(lat.text), float(lon.text), float(meters.text)))
    return points


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "samples", "devices")
    for name in sorted(os.listdir(directory)):
        stem, extension = os.path.splitext(name)
        reader = {".fit": fit_points, ".tcx": tcx_points}.get(extension.lower())
        if reader is None:
            continue
        try:
            points = reader(os.path.join(directory, name))
        except Exception as error:  # one line that names the file and says why
            sys.exit(f"{name}: cannot read it ({error})")
        if not points:
            sys.exit(f"{name}: no point with a position, a time and the device's distance")
        start = points[0][0]
        target = os.path.join(directory, stem + ".csv")
        with open(target + ".tmp", "w", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(["seconds", "latitude", "longitude", "device_meters"])
            for time, lat, lon, meters in points:
                writer.writerow([f"{time - start:.0f}", f"{lat:.7f}", f"{lon:.7f}", f"{meters:.2f}"])
        os.replace(target + ".tmp", target)
        print(f"{name}: {len(points)} points, {points[-1][3]:.0f} m by the device -> {os.path.basename(target)}")


if __name__ == "__main__":
    main()
