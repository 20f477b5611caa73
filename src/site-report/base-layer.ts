import { geoAzimuthalEquidistant, geoPath } from 'd3-geo';
import { mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import counties from 'us-atlas/counties-10m.json';
import { EARTH_RADIUS_MILES } from '../area/geo';

type Line = { points: [number, number][]; west: number; east: number; south: number; north: number };
type Borders = { county: Line[]; state: Line[] };

let borders: Borders | null = null;

function linesOf(m: { coordinates: [number, number][][] }): Line[] {
  return m.coordinates.map((points) => {
    let west = Infinity, east = -Infinity, south = Infinity, north = -Infinity;
    for (const [lng, lat] of points) (west = Math.min(west, lng)), (east = Math.max(east, lng)), (south = Math.min(south, lat)), (north = Math.max(north, lat));
    return { points, west, east, south, north };
  });
}

/** County and state borders of the bundled us-atlas (Census 1:10m), each line with its box; made once per process. */
function bordersOf(): Borders {
  if (borders) return borders;
  const topo = counties as unknown as Topology<{ counties: GeometryCollection; states: GeometryCollection }>;
  const id = (g: { id?: string | number }) => String(g.id ?? '');
  borders = {
    // a county border that is also a state border is drawn once, as the state's
    county: linesOf(mesh(topo, topo.objects.counties, (a, b) => a !== b && id(a).slice(0, 2) === id(b).slice(0, 2)) as never),
    state: linesOf(mesh(topo, topo.objects.states, (a, b) => a !== b) as never),
  };
  return borders;
}

/**
 * The county and state borders around a site as polylines in page points: the radius map's
 * projection (azimuthal equidistant about the site, `perMile` points a mile, north up, the site at
 * (cx, cy)), clipped to the map's square. Offline: the outlines ship with the service. Empty away
 * from the United States and its territories.
 */
export function borderLines(site: { lat: number; lng: number }, perMile: number, cx: number, cy: number, half: number): { county: [number, number][][]; state: [number, number][][] } {
  const projection = geoAzimuthalEquidistant()
    .rotate([-site.lng, -site.lat])
    .scale(perMile * EARTH_RADIUS_MILES)
    .translate([cx, cy])
    .reflectY(true)
    .clipExtent([[cx - half, cy - half], [cx + half, cy + half]]);
  // a box of the square's reach in degrees, to leave out the lines far away before projecting
  const reachMiles = (half * Math.SQRT2) / perMile;
  const dLat = reachMiles / 69;
  const dLng = dLat / Math.max(0.05, Math.cos((site.lat * Math.PI) / 180));
  const near = (l: Line) => l.north >= site.lat - dLat && l.south <= site.lat + dLat && l.east >= site.lng - dLng && l.west <= site.lng + dLng;
  const draw = (lines: Line[]) => {
    const out: [number, number][][] = [];
    let current: [number, number][] = [];
    const context = {
      moveTo: (x: number, y: number) => {
        if (current.length > 1) out.push(current);
        current = [[x, y]];
      },
      lineTo: (x: number, y: number) => void current.push([x, y]),
      closePath: () => void (current.length > 0 && current.push(current[0]!)),
      arc: () => undefined,
      beginPath: () => undefined,
    };
    const path = geoPath(projection, context as never);
    const picked = lines.filter(near);
    if (picked.length) path({ type: 'MultiLineString', coordinates: picked.map((l) => l.points) });
    if (current.length > 1) out.push(current);
    return out;
  };
  const b = bordersOf();
  return { county: draw(b.county), state: draw(b.state) };
}
