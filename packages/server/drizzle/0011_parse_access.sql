CREATE TABLE "object_relations" (
	"class_name" text NOT NULL,
	"field" text NOT NULL,
	"owning_id" text NOT NULL,
	"related_id" text NOT NULL,
	CONSTRAINT "object_relations_class_name_field_owning_id_related_id_pk" PRIMARY KEY("class_name","field","owning_id","related_id")
);
--> statement-breakpoint
CREATE TABLE "user_addresses" (
	"address" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "read_perm" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "write_perm" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
INSERT INTO "user_addresses" ("address", "user_id", "linked_at") SELECT "address", "id", "first_sign_in_at" FROM "users" ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "user_addresses" ADD CONSTRAINT "user_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "object_relations_related_idx" ON "object_relations" USING btree ("class_name","field","related_id");--> statement-breakpoint
CREATE INDEX "user_addresses_user_idx" ON "user_addresses" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "objects_read_perm_idx" ON "objects" USING gin ("read_perm");--> statement-breakpoint
CREATE UNIQUE INDEX "objects_role_name_idx" ON "objects" USING btree (("data"->>'name')) WHERE "objects"."class_name" = '_Role';--> statement-breakpoint
CREATE FUNCTION object_roles(uid text) RETURNS text[] LANGUAGE sql STABLE AS $$
  WITH RECURSIVE member(role_id) AS (
    SELECT owning_id FROM object_relations
      WHERE class_name = '_Role' AND field = 'users' AND related_id = uid
    UNION
    SELECT r.owning_id FROM object_relations r JOIN member m ON r.related_id = m.role_id
      WHERE r.class_name = '_Role' AND r.field = 'roles'
  )
  SELECT coalesce(array_agg('role:' || (o.data->>'name')), '{}')
  FROM member JOIN objects o ON o.class_name = '_Role' AND o.id = member.role_id
$$;