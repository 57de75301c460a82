import type { Knex } from 'knex';

const timestamps = (t: Knex.CreateTableBuilder) => {
  t.string('created_at', 32).notNullable();
  t.string('updated_at', 32).notNullable();
};

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('departments', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable().unique();
    t.text('description').notNullable().defaultTo('');
    timestamps(t);
  });
  await db.schema.createTable('positions', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable().unique();
    t.text('description').notNullable().defaultTo('');
    timestamps(t);
  });
  await db.schema.createTable('position_knowledge', (t) => {
    t.increments('id');
    t.integer('position_id').notNullable().references('positions.id').onDelete('CASCADE');
    t.string('title', 200).notNullable();
    t.string('kind', 20).notNullable().defaultTo('text');
    t.integer('ref_id').nullable();
    t.boolean('is_mandatory').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.index(['position_id']);
  });
  await db.schema.createTable('users', (t) => {
    t.increments('id');
    t.string('username', 64).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.string('full_name', 100).notNullable().defaultTo('');
    t.string('role', 16).notNullable().defaultTo('employee');
    t.string('status', 16).notNullable().defaultTo('active');
    t.string('department', 100).notNullable().defaultTo('');
    t.integer('department_id').nullable().references('departments.id').onDelete('SET NULL');
    t.integer('position_id').nullable().references('positions.id').onDelete('SET NULL');
    timestamps(t);
    t.index(['role', 'status']);
    t.index(['department']);
  });
  await db.schema.createTable('system_config', (t) => {
    t.string('key', 100).primary();
    t.text('value').notNullable();
    t.string('updated_at', 32).notNullable();
  });
  await db.schema.createTable('notifications', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('type', 50).notNullable();
    t.string('title', 200).notNullable();
    t.text('content').notNullable().defaultTo('');
    t.string('link', 500).notNullable().defaultTo('');
    t.boolean('read').notNullable().defaultTo(false);
    t.string('created_at', 32).notNullable();
    t.index(['user_id', 'read']);
    t.index(['user_id', 'created_at', 'id']);
  });
  await db.schema.createTable('products', (t) => {
    t.increments('id');
    t.string('code', 64).nullable().unique();
    t.string('name', 200).notNullable();
    t.string('category', 100).notNullable().defaultTo('');
    t.string('status', 16).notNullable().defaultTo('active');
    t.text('summary').notNullable().defaultTo('');
    t.text('description').notNullable().defaultTo('');
    t.string('risk_level', 50).notNullable().defaultTo('');
    t.double('commission_rate').nullable();
    t.text('attributes').notNullable().defaultTo('{}');
    timestamps(t);
    t.index(['status', 'category']);
  });
  await db.schema.createTable('courses', (t) => {
    t.increments('id');
    t.string('title', 200).notNullable();
    t.string('category', 100).notNullable().defaultTo('');
    t.string('status', 16).notNullable().defaultTo('active');
    t.text('summary').notNullable().defaultTo('');
    t.text('content').notNullable().defaultTo('');
    t.integer('duration_minutes').nullable();
    timestamps(t);
    t.index(['status', 'category']);
  });
  await db.schema.createTable('course_products', (t) => {
    t.integer('course_id').notNullable().references('courses.id').onDelete('CASCADE');
    t.integer('product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.integer('sort_order').notNullable().defaultTo(0);
    t.primary(['course_id', 'product_id']);
    t.index(['product_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['course_products', 'courses', 'products', 'notifications', 'system_config', 'users', 'position_knowledge', 'positions', 'departments']) {
    await db.schema.dropTableIfExists(table);
  }
}
