import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ai_routes', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('kind', 16).notNullable();
    t.string('provider', 50).notNullable();
    t.string('base_url', 500).notNullable();
    t.text('api_key').notNullable().defaultTo('');
    t.string('model', 200).notNullable();
    t.integer('priority').notNullable().defaultTo(100);
    t.boolean('enabled').notNullable().defaultTo(true);
    t.boolean('is_local').notNullable().defaultTo(false);
    t.integer('connect_timeout_ms').nullable();
    t.integer('idle_timeout_ms').nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['kind', 'enabled', 'priority']);
  });
  await db.schema.createTable('model_calls', (t) => {
    t.increments('id');
    t.integer('route_id').nullable().references('ai_routes.id').onDelete('SET NULL');
    t.string('route_name', 100).notNullable();
    t.string('model', 200).notNullable();
    t.integer('user_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('specialist_key', 100).nullable();
    t.integer('task_id').nullable();
    t.string('purpose', 50).notNullable().defaultTo('');
    t.string('status', 16).notNullable();
    t.text('error').notNullable().defaultTo('');
    t.integer('attempt').notNullable().defaultTo(1);
    t.integer('latency_ms').notNullable();
    t.integer('first_token_ms').nullable();
    t.integer('prompt_chars').notNullable().defaultTo(0);
    t.integer('reply_chars').notNullable().defaultTo(0);
    t.integer('prompt_tokens').nullable();
    t.integer('completion_tokens').nullable();
    t.string('created_at', 32).notNullable();
    t.index(['created_at']);
    t.index(['user_id']);
    t.index(['specialist_key']);
  });
  // One rolling coach conversation per user.
  await db.schema.createTable('chat_messages', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('role', 16).notNullable();
    t.text('content').notNullable();
    t.integer('product_id').nullable().references('products.id').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.index(['user_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['chat_messages', 'model_calls', 'ai_routes']) await db.schema.dropTableIfExists(table);
}
