// Distances on Earth for searches near a point: the great-circle distance
// (haversine) in SQL, and the latitude/longitude box around a circle, which an index
// can narrow the candidates with before the exact distance is computed.
import type { GeoPoint } from './types.ts';

/** The Earth's mean radius, in kilometres. */
const EARTH_RADIUS_KM = 6371.0088;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/**
 * The great-circle distance in kilometres from `from` to the point in the
 * columns lat and lon, in SQL (haversine, with SQLite's math functions: a
 * function of the application's own, called per row, cost three times more).
 */
export function distanceSql(from: GeoPoint, lat: string, lon: string): { sql: string; params: number[] } {
  return {
    sql: `${2 * EARTH_RADIUS_KM} * asin(min(1, sqrt(pow(sin(radians(${lat} - ?) / 2), 2) + ? * cos(radians(${lat})) * pow(sin(radians(${lon} - ?) / 2), 2))))`,
    params: [from.lat, Math.cos(toRadians(from.lat)), from.lon],
  };
}

/**
 * The box holding every point within radiusKm of the centre. Near a pole, or
 * when the circle crosses the antimeridian, the box takes every longitude
 * (wider than needed, never narrower: the exact distance decides).
 */
export function boundingBox(
  centre: GeoPoint,
  radiusKm: number,
): { minLat: number; maxLat: number; minLon: number; maxLon: number } {
  const dLat = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI);
  const minLat = Math.max(-90, centre.lat - dLat);
  const maxLat = Math.min(90, centre.lat + dLat);
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  const dLon = widest >= 90 ? 180 : dLat / Math.cos(toRadians(widest));
  if (dLon >= 180 || centre.lon - dLon < -180 || centre.lon + dLon > 180)
    return { minLat, maxLat, minLon: -180, maxLon: 180 };
  return { minLat, maxLat, minLon: centre.lon - dLon, maxLon: centre.lon + dLon };
}
