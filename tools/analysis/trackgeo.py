"""Helpers shared by the analysis scripts: the data sets' haversine and where the data sets are."""
import math, os

# The data sets' convention (their PROVENANCE.md figures): a sphere of the mean Earth radius, metres.
R = 6371008.8


def haversine(a, b):
    """Distance in metres between two (latitude, longitude) pairs in degrees."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def datasets_root():
    """$TRUETRACK_DATASETS, else ../shared/datasets beside the repository."""
    return os.environ.get("TRUETRACK_DATASETS", os.path.join(os.path.dirname(__file__), "../../../shared/datasets"))
