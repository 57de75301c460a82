import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { ScenarioCreate, ScenarioListQuery, ScenarioUpdate, SessionCreate, SessionListQuery, TurnBody } from './roleplay.schema.js';
import {
  createScenario,
  disableScenario,
  editScenario,
  finish,
  openForTurn,
  readScenario,
  readSession,
  scenarioStats,
  scenariosFor,
  sessionsFor,
  startSession,
  takeTurn,
  type Reader,
} from './roleplay.service.js';
import { streamTurn } from './turn-stream.js';
import { voiceTurns } from './voice-turn.js';

/**
 * AI role-play under /api/roleplay (docs/api/roleplay.md): scenarios written by admins and played by everyone;
 * sessions played by their owner, read by admins too.
 */
export function roleplayRoutes({ db, config, storage, requireUser, requireAdmin }: Deps): Router {
  const router = new Router({ prefix: '/roleplay' });
  const voice = voiceTurns({ db, config, storage });
  const reader = (ctx: Context): Reader => currentUser(ctx);

  router.get('/scenarios', requireUser, async (ctx) => {
    ctx.body = await scenariosFor(db, reader(ctx), parseQuery(ctx, ScenarioListQuery).status);
  });
  router.post('/scenarios', ...requireAdmin, async (ctx) => {
    const created = await createScenario(db, reader(ctx), parseBody(ctx, ScenarioCreate));
    ctx.status = 201;
    ctx.set('Location', `/api/roleplay/scenarios/${created.id}`);
    ctx.body = created;
  });
  router.get('/scenarios/:id', requireUser, async (ctx) => {
    ctx.body = await readScenario(db, reader(ctx), parseId(ctx.params.id, 'Scenario'));
  });
  router.put('/scenarios/:id', ...requireAdmin, async (ctx) => {
    const id = parseId(ctx.params.id, 'Scenario');
    ctx.body = await editScenario(db, id, parseBody(ctx, ScenarioUpdate));
  });
  router.delete('/scenarios/:id', ...requireAdmin, async (ctx) => {
    ctx.body = await disableScenario(db, parseId(ctx.params.id, 'Scenario'));
  });
  router.get('/scenarios/:id/stats', ...requireAdmin, async (ctx) => {
    ctx.body = await scenarioStats(db, parseId(ctx.params.id, 'Scenario'));
  });

  router.post('/sessions', requireUser, async (ctx) => {
    const session = await startSession(db, reader(ctx), parseBody(ctx, SessionCreate).scenario_id);
    ctx.status = 201;
    ctx.set('Location', `/api/roleplay/sessions/${session.id}`);
    ctx.body = session;
  });
  router.get('/sessions', requireUser, async (ctx) => {
    ctx.body = await sessionsFor(db, reader(ctx), parseQuery(ctx, SessionListQuery));
  });
  router.get('/sessions/:id', requireUser, async (ctx) => {
    ctx.body = await readSession(db, reader(ctx), parseId(ctx.params.id, 'Session'));
  });
  // `{text}`, or the rep's words spoken: multipart `audio`, transcribed once the turn is known to be allowed.
  router.post('/sessions/:id/turns', requireUser, voice.receive, async (ctx) => {
    const id = parseId(ctx.params.id, 'Session');
    let text: string;
    if (ctx.is('multipart')) {
      await openForTurn(db, reader(ctx), id);
      text = await voice.transcript(ctx, reader(ctx).id);
    } else {
      text = parseBody(ctx, TurnBody).text;
    }
    if (ctx.accepts('application/json', 'text/event-stream') === 'text/event-stream' && !ctx.get('accept').includes('application/json')) {
      await streamTurn(ctx, db, reader(ctx), id, text);
      return;
    }
    ctx.body = await takeTurn(db, reader(ctx), id, text);
  });
  router.post('/sessions/:id/finish', requireUser, async (ctx) => {
    ctx.body = await finish(db, reader(ctx), parseId(ctx.params.id, 'Session'));
  });

  return router;
}
