// Media bindings across installs: ids mean nothing on another install, so a product travels as its code and a
// course as its title, and are looked up again on import. What cannot be carried or found becomes `none`.
import type { Db } from '../db/knex.js';
import type { MediaRow } from '../media/media.repository.js';
import type { BindingInput } from '../media/media.schema.js';
import type { PackMedia } from './pack-file.js';
import { courseIdByTitle, courseTitleOf, productCodeOf, productIdByCode } from './packs.repository.js';

export type PortableBinding = Pick<PackMedia, 'bind_type' | 'bind_ref'>;

export async function portableBinding(db: Db, row: MediaRow): Promise<PortableBinding> {
  if (row.bind_type === 'company') return { bind_type: 'company' };
  const id = Number(row.bind_id);
  const ref = row.bind_type === 'product' ? await productCodeOf(db, id) : row.bind_type === 'course' ? await courseTitleOf(db, id) : undefined;
  return ref ? { bind_type: row.bind_type, bind_ref: ref } : { bind_type: 'none' };
}

export async function localBinding(db: Db, binding: PortableBinding): Promise<BindingInput> {
  if (binding.bind_type === 'company') return { bind_type: 'company' };
  const ref = binding.bind_ref;
  const id = !ref ? undefined : binding.bind_type === 'product' ? await productIdByCode(db, ref) : binding.bind_type === 'course' ? await courseIdByTitle(db, ref) : undefined;
  return id === undefined ? { bind_type: 'none' } : { bind_type: binding.bind_type as 'product' | 'course', bind_id: id };
}
