import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export type ContentSecurityPolicy = NonNullable<
  NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy']
>;

/**
 * Security headers, by Hono's secureHeaders, the same for every kind of page except its policy:
 * the dashboard and the public report page each bring their own; `null` leaves it out. No HSTS: the
 * server is often reached over plain HTTP on a local network, and a TLS front end in front of it
 * knows its own policy.
 */
export function securityHeadersWith(policy: ContentSecurityPolicy | null): MiddlewareHandler {
  return secureHeaders({
    ...(policy === null ? {} : { contentSecurityPolicy: policy }),
    xFrameOptions: 'DENY',
    strictTransportSecurity: false,
    permissionsPolicy: {
      accelerometer: [],
      camera: [],
      geolocation: [],
      gyroscope: [],
      magnetometer: [],
      microphone: [],
      payment: [],
      usb: [],
    },
  });
}
