// The environment: reset in the first step, then anything. Hand-derived
// verdicts (examples/verilog/EXPECTED.tsv lists the two-file design):
// - `bounded` holds: credits start at 4 and never pass it (safe);
// - `never_empty` fails: four `take`s after reset spend every credit, so
//   credits is 0 after five transitions (unsafe; BMC's shortest
//   counterexample has 5 transitions).
module credit_top (
    input logic clk,
    input logic rst_n,
    input logic take,
    input logic give
);
  logic [2:0] credits;
  logic       started;
  initial started = 1'b0;
  always_ff @(posedge clk) started <= 1'b1;

  credit_counter #(.MAX(4)) counter (.*);

  always_comb begin
    if (!started) assume (!rst_n);
    bounded: assert (!started || credits <= 3'd4);
    never_empty: assert (!started || credits != '0);
  end
endmodule
