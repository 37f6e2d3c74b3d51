import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * The access log: one line for each answered request, written when its answer is done, with the
 * request (method, path, host, address), the status and the time it took. Fastify's own writes two,
 * "incoming request" before any work and "request completed" after it; the first says nothing the
 * second does not, and at `LOG_LEVEL=info` the pair was a fifth of a cached answer's CPU
 * (docs/performance.md, "One access log line a request"). A request that never completes (the
 * process killed mid-answer) leaves no line; its client saw no answer either.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
