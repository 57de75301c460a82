import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../context.js';
import { currentUser } from '../auth/guards.js';
import { parseBody, parseId, parseQuery } from '../http/validate.js';
import { NoteCreate, NoteListQuery, NoteUpdate } from './notes.schema.js';
import { createNote, deleteNote, getNote, listNotesOfOwners, updateNote } from './notes.service.js';
import { documented } from '../http/openapi.js';

/** /api/notes: the caller's study notes; another user's note is a 404. */
export function noteRoutes({ db, requireUser }: Deps): Router {
  const router = new Router({ prefix: '/notes' });
  router.use(requireUser);
  const me = (ctx: Context) => currentUser(ctx).id;

  router.get('/', documented({ query: NoteListQuery }), async (ctx) => {
    ctx.body = await listNotesOfOwners(db, [me(ctx)], parseQuery(ctx, NoteListQuery));
  });
  router.get('/:id', async (ctx) => {
    ctx.body = await getNote(db, me(ctx), parseId(ctx.params.id, 'Note'));
  });
  router.post('/', documented({ body: NoteCreate }), async (ctx) => {
    const note = await createNote(db, me(ctx), parseBody(ctx, NoteCreate));
    ctx.status = 201;
    ctx.body = note;
  });
  router.put('/:id', documented({ body: NoteUpdate }), async (ctx) => {
    const id = parseId(ctx.params.id, 'Note');
    ctx.body = await updateNote(db, me(ctx), id, parseBody(ctx, NoteUpdate));
  });
  router.delete('/:id', async (ctx) => {
    ctx.body = await deleteNote(db, me(ctx), parseId(ctx.params.id, 'Note'));
  });
  return router;
}
