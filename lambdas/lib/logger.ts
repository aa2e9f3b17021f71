import { Logger } from '@aws-lambda-powertools/logger';

/**
 * One structured logger for the lambdas. Log ids, statuses and amounts; never a secret or full
 * personal data (names, emails, addresses, phones stay out of the logs).
 */
export const logger = new Logger({ serviceName: 'live-aquatics-shop' });
