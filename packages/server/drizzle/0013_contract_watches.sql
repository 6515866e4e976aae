CREATE TABLE "contract_watches" (
	"table_name" text PRIMARY KEY NOT NULL,
	"sync_name" text NOT NULL,
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"event" jsonb NOT NULL,
	"start_block" bigint NOT NULL,
	"filter" jsonb,
	"event_limit" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
