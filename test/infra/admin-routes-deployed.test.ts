import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../../infra/lib/constructs/merchant-admin';
import { ROUTES } from '../../lambdas/handlers/admin-api/handler';

// The admin Lambda answers only what API Gateway routes to it: a route the handler knows and the
// stack forgets is a 404 in AWS while every local test passes (the local stack routes by prefix).
describe('the admin routes deployed', () => {
  it('are exactly the routes the admin handler answers, method and path', () => {
    const deployed = ADMIN_ROUTES.map((r) => `${r.method} ${r.path}`).sort();
    const answered = ROUTES.map((r) => `${r.method} ${r.path}`).sort();
    expect(deployed).toEqual(answered);
    expect(deployed).toContain('POST /functions/v1/admin/orders/address');
    expect(deployed).toContain('POST /functions/v1/admin/orders/page-link');
  });
});
