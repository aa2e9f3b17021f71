import type { AdminWeatherThresholdsResponse } from './admin-responses';

/** The weather check's thresholds in the merchant's words: /admin and `orders weather-thresholds` alike. */
export function describeWeatherThresholds(t: AdminWeatherThresholdsResponse['thresholds']): string {
  return `At risk below ${t.atRiskBelow} °C or above ${t.atRiskAbove} °C; watch below ${t.watchBelow} °C or above ${t.watchAbove} °C.`;
}
