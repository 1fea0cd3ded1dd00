import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import { withoutQuery } from '../../src/observability/tracing';

/**
 * Outgoing calls' spans (webhook deliveries, processors) record their URL without its query
 * string: a merchant's webhook URL may carry a token there, and traces leave for a collector.
 */
describe("an outgoing request's span", () => {
  const spanRecording = () => {
    const attributes: Record<string, unknown> = {};
    const span = {
      setAttribute(key: string, value: unknown) {
        attributes[key] = value;
        return span;
      },
    } as unknown as Span;
    return { span, attributes };
  };

  it('keeps the URL without its query string', () => {
    const request = httpRequest({ host: '127.0.0.1', port: 9, path: '/hooks/fc?token=s3cr3t&x=1', method: 'POST' });
    request.on('error', () => undefined);
    request.destroy();
    const { span, attributes } = spanRecording();
    withoutQuery(span, request);
    expect(attributes).toEqual({ 'http.target': '/hooks/fc', 'http.url': 'http://127.0.0.1/hooks/fc' });
  });

  it('leaves an incoming request to the route middleware', () => {
    const { span, attributes } = spanRecording();
    withoutQuery(span, { url: '/v1/evaluate?x=1' } as IncomingMessage);
    expect(attributes).toEqual({});
  });
});
