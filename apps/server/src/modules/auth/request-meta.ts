import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from './auth.service';

export function requestMeta(request: FastifyRequest): RequestMeta {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}
