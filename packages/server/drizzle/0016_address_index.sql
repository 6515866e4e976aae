CREATE TABLE "indexed_addresses" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"source" text NOT NULL,
	"asked_by" text,
	"next_block" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "indexed_addresses_chain_id_address_pk" PRIMARY KEY("chain_id","address")
);
--> statement-breakpoint
CREATE TABLE "index_token_uris" (
	"chain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"uri" text,
	CONSTRAINT "index_token_uris_chain_id_token_address_token_id_pk" PRIMARY KEY("chain_id","token_address","token_id")
);
--> statement-breakpoint
CREATE TABLE "index_tokens" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"name" text,
	"symbol" text,
	"decimals" integer,
	CONSTRAINT "index_tokens_chain_id_address_pk" PRIMARY KEY("chain_id","address")
);
--> statement-breakpoint
CREATE TABLE "index_transactions" (
	"chain_id" integer NOT NULL,
	"hash" text NOT NULL,
	"nonce" bigint NOT NULL,
	"transaction_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text,
	"value" numeric(78, 0) NOT NULL,
	"gas" numeric(78, 0) NOT NULL,
	"gas_price" numeric(78, 0) NOT NULL,
	"input" text NOT NULL,
	"receipt_cumulative_gas_used" numeric(78, 0) NOT NULL,
	"receipt_gas_used" numeric(78, 0) NOT NULL,
	"receipt_contract_address" text,
	"receipt_status" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_timestamp" timestamp with time zone NOT NULL,
	"confirmed" boolean NOT NULL,
	CONSTRAINT "index_transactions_chain_id_hash_pk" PRIMARY KEY("chain_id","hash")
);
--> statement-breakpoint
CREATE TABLE "index_nft_holdings" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"token_address" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"contract_type" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"block_number_minted" bigint NOT NULL,
	CONSTRAINT "index_nft_holdings_chain_id_address_token_address_token_id_pk" PRIMARY KEY("chain_id","address","token_address","token_id")
);
--> statement-breakpoint
CREATE TABLE "index_nft_transfers" (
	"chain_id" integer NOT NULL,
	"transaction_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"batch_index" integer NOT NULL,
	"transaction_index" integer NOT NULL,
	"token_address" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"contract_type" text NOT NULL,
	"transaction_type" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"operator" text,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_timestamp" timestamp with time zone NOT NULL,
	"confirmed" boolean NOT NULL,
	CONSTRAINT "index_nft_transfers_chain_id_transaction_hash_log_index_batch_index_pk" PRIMARY KEY("chain_id","transaction_hash","log_index","batch_index")
);
--> statement-breakpoint
CREATE TABLE "index_token_balances" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"token_address" text NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	CONSTRAINT "index_token_balances_chain_id_address_token_address_pk" PRIMARY KEY("chain_id","address","token_address")
);
--> statement-breakpoint
CREATE TABLE "index_token_transfers" (
	"chain_id" integer NOT NULL,
	"transaction_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"transaction_index" integer NOT NULL,
	"token_address" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_timestamp" timestamp with time zone NOT NULL,
	"confirmed" boolean NOT NULL,
	CONSTRAINT "index_token_transfers_chain_id_transaction_hash_log_index_pk" PRIMARY KEY("chain_id","transaction_hash","log_index")
);
--> statement-breakpoint
CREATE INDEX "indexed_addresses_next_idx" ON "indexed_addresses" USING btree ("chain_id","next_block");--> statement-breakpoint
CREATE INDEX "indexed_addresses_asked_idx" ON "indexed_addresses" USING btree ("asked_by");--> statement-breakpoint
CREATE INDEX "index_transactions_from_idx" ON "index_transactions" USING btree ("chain_id","from_address","block_number");--> statement-breakpoint
CREATE INDEX "index_transactions_to_idx" ON "index_transactions" USING btree ("chain_id","to_address","block_number");--> statement-breakpoint
CREATE INDEX "index_transactions_block_idx" ON "index_transactions" USING btree ("chain_id","block_number");--> statement-breakpoint
CREATE INDEX "index_nft_transfers_from_idx" ON "index_nft_transfers" USING btree ("chain_id","from_address","block_number");--> statement-breakpoint
CREATE INDEX "index_nft_transfers_to_idx" ON "index_nft_transfers" USING btree ("chain_id","to_address","block_number");--> statement-breakpoint
CREATE INDEX "index_nft_transfers_block_idx" ON "index_nft_transfers" USING btree ("chain_id","block_number");--> statement-breakpoint
CREATE INDEX "index_token_transfers_from_idx" ON "index_token_transfers" USING btree ("chain_id","from_address","block_number");--> statement-breakpoint
CREATE INDEX "index_token_transfers_to_idx" ON "index_token_transfers" USING btree ("chain_id","to_address","block_number");--> statement-breakpoint
CREATE INDEX "index_token_transfers_block_idx" ON "index_token_transfers" USING btree ("chain_id","block_number");