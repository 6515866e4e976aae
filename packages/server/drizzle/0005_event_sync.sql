CREATE TABLE "event_syncs" (
	"name" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"class_name" text NOT NULL,
	"next_block" bigint NOT NULL,
	"head" bigint,
	"rows" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_blocks" (
	"name" text NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "sync_blocks_name_number_pk" PRIMARY KEY("name","number")
);
--> statement-breakpoint
CREATE TABLE "synced_events" (
	"name" text NOT NULL,
	"object_id" text NOT NULL,
	"block_number" bigint NOT NULL,
	"confirmed" boolean NOT NULL,
	CONSTRAINT "synced_events_name_object_id_pk" PRIMARY KEY("name","object_id")
);
--> statement-breakpoint
CREATE INDEX "synced_events_block_idx" ON "synced_events" USING btree ("name","block_number");