/**
 * The Meter on Powertools for AWS Lambda's Metrics: each count or duration is one embedded-metric-format
 * line on stdout, which CloudWatch turns into a metric of the service's namespace. Set
 * POWERTOOLS_METRICS_DISABLED=true to silence it (the tests do).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { type Dimensions, METRICS_NAMESPACE, type Meter, type MetricName } from '../domain/shared/meter';
import { SERVICE_NAME } from './logger';

export { SERVICE_NAME } from './logger';

export const emfMeter = (): Meter => {
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  const emit = (
    name: MetricName,
    unit: (typeof MetricUnit)[keyof typeof MetricUnit],
    value: number,
    dimensions: Dimensions = {},
  ) => {
    // Each metric is published at once with only its own dimensions (publishing clears them), in one
    // synchronous step, so concurrent requests of one process never mix. Not `singleMetric()`: it builds
    // a new Metrics (a Console, the environment read again) for every value.
    for (const [key, dimension] of Object.entries(dimensions)) metrics.addDimension(key, dimension);
    metrics.addMetric(name, unit, value);
    metrics.publishStoredMetrics();
  };
  return {
    count: (name, dimensions, value = 1) => emit(name, MetricUnit.Count, value, dimensions),
    milliseconds: (name, ms, dimensions) => emit(name, MetricUnit.Milliseconds, Math.round(ms), dimensions),
  };
};
