// Distances on Earth for searches near a point: the great-circle distance
// (haversine), and the latitude/longitude box around a circle, which an index
// can narrow the candidates with before the exact distance is computed.
import type { GeoPoint } from './types.ts';

/** The Earth's mean radius, in kilometres. */
const EARTH_RADIUS_KM = 6371.0088;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance between two points, in kilometres. */
export function distanceKm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const dLat = toRadians(bLat - aLat);
  const dLon = toRadians(bLon - aLon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(aLat)) * Math.cos(toRadians(bLat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The box holding every point within radiusKm of the centre. Near a pole, or
 * when the circle crosses the antimeridian, the box takes every longitude
 * (wider than needed, never narrower: the exact distance decides).
 */
export function boundingBox(centre: GeoPoint, radiusKm: number): { minLat: number; maxLat: number; minLon: number; maxLon: number } {
  const dLat = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI);
  const minLat = Math.max(-90, centre.lat - dLat);
  const maxLat = Math.min(90, centre.lat + dLat);
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  const dLon = widest >= 90 ? 180 : dLat / Math.cos(toRadians(widest));
  if (dLon >= 180 || centre.lon - dLon < -180 || centre.lon + dLon > 180) return { minLat, maxLat, minLon: -180, maxLon: 180 };
  return { minLat, maxLat, minLon: centre.lon - dLon, maxLon: centre.lon + dLon };
}
