// A credit counter: starts full (MAX) on reset, `take` spends a credit,
// `give` returns one; neither goes past the ends. Asynchronous active-low
// reset (read as synchronous by the flow, as SymbiYosys does).
module credit_counter #(parameter int MAX = 4) (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       take,
    input  logic       give,
    output logic [2:0] credits
);
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) credits <= 3'(MAX);
    else if (take && !give && credits != '0) credits <= credits - 3'd1;
    else if (give && !take && credits != 3'(MAX)) credits <= credits + 3'd1;
  end
endmodule
