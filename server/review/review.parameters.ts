// The system parameters of spaced review (docs/api/review.md).
import type { FSRS } from 'ts-fsrs';
import type { Db } from '../db/knex.js';
import { readConfigValue } from '../system/config.service.js';
import { schedulerFor } from './scheduler.js';

export const dailyLimitOf = async (db: Db): Promise<number> => Number((await readConfigValue<number>(db, 'review_daily_limit')) ?? 30);

export const schedulerOfSystem = async (db: Db): Promise<FSRS> => schedulerFor(Number((await readConfigValue<number>(db, 'review_target_retention')) ?? 0.9));
