import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  PaymentIssueParams,
  ReconcileQuery,
  PaymentIssueResponse,
  PaymentsHealthResponse,
  ReconcileResponse,
  ResolveIssueBody,
  type PaymentIssue,
  type ReconciliationRunEntry,
} from '@backbeat/contract';
import { requireRole } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import type { AdjustmentsRepository, PaymentIssueRow } from './adjustments.repository';
import type { Reconciliation, ReconciliationRun } from './reconciliation';

const tags = ['admin'];
const errors = { 401: ErrorResponse, 403: ErrorResponse };

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentRun(run: ReconciliationRun): ReconciliationRunEntry {
  return {
    _id: run.id,
    gateway: run.gateway,
    trigger: run.trigger === 'admin' ? 'admin' : 'schedule',
    status: run.status,
    windowStart: run.windowStart.toISOString(),
    windowEnd: run.windowEnd.toISOString(),
    examined: run.examined,
    fixed: run.fixed,
    problems: run.problems,
    fixes: Array.isArray(run.fixes) ? (run.fixes as string[]) : [],
    error: run.error,
    startedAt: run.startedAt.toISOString(),
    finishedAt: iso(run.finishedAt),
  };
}

export function presentIssue(issue: PaymentIssueRow): PaymentIssue {
  return {
    _id: issue.id,
    gateway: issue.gateway,
    kind: issue.kind,
    externalId: issue.externalId,
    orderId: issue.orderId,
    amount: issue.amount,
    currency: issue.currency,
    detail: issue.detail,
    status: issue.status,
    resolution: issue.resolution,
    createdAt: issue.createdAt.toISOString(),
    resolvedAt: iso(issue.resolvedAt),
  };
}

/** The admin's view of the money's health: reconciliation runs, running one now, and the issues list. */
export const adminPaymentRoutes: FastifyPluginAsyncZod<{
  reconciliation: Reconciliation;
  issues: AdjustmentsRepository;
  clock: () => Date;
}> = async (app, { reconciliation, issues, clock }) => {
  app.get(
    '/admin/payments/health',
    {
      schema: {
        tags,
        summary:
          'The latest reconciliation runs of each gateway and the payments that need attention (admin)',
        response: { 200: PaymentsHealthResponse, ...errors },
      },
    },
    async (request) => {
      await requireRole(request, 'admin');
      const [runs, list] = await Promise.all([reconciliation.latestRuns(), issues.listIssues()]);
      return {
        gateways: reconciliation.gateways,
        runs: runs.map(presentRun),
        issues: list.map(presentIssue),
      };
    },
  );

  app.post(
    '/admin/payments/reconcile',
    {
      schema: {
        tags,
        summary: 'Reconcile with every configured gateway (or one) now: apply what webhooks missed (admin)',
        querystring: ReconcileQuery,
        response: { 200: ReconcileResponse, ...errors, 400: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (request) => {
      await requireRole(request, 'admin');
      const runs = await reconciliation.runAll('admin', request.query.gateway);
      return { runs: runs.map(presentRun) };
    },
  );

  app.post(
    '/admin/payments/issues/:id/resolve',
    {
      schema: {
        tags,
        summary: 'Mark a payment issue settled by hand, saying how (admin)',
        params: PaymentIssueParams,
        body: ResolveIssueBody,
        response: { 200: PaymentIssueResponse, ...errors, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      await requireRole(request, 'admin');
      const issue = await issues.resolveIssueById(request.params.id, request.body.resolution, clock());
      if (!issue) throw notFound('Issue not found', 'ISSUE_NOT_FOUND');
      return { issue: presentIssue(issue) };
    },
  );
};
