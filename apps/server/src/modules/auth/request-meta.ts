import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from './auth.service';
import { DEVICE_COOKIE } from './device-cookie';

export function requestMeta(request: FastifyRequest): RequestMeta {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: userAgent ? userAgent.slice(0, 512) : null,
    deviceCookie: request.cookies[DEVICE_COOKIE],
  };
}
