// A decimal counter: counts 0..9 while `en`, can load a digit.
// Safe: the value never exceeds 9, because loads are assumed to carry a
// digit. With NO_LOAD_ASSUMPTION defined, loading 10..15 breaks it in one
// step (unsafe).
module counter (
    input wire clk,
    input wire en,
    input wire load,
    input wire [3:0] din,
    output reg [3:0] count
);
  initial count = 0;
  always @(posedge clk) begin
    if (load) count <= din;
    else if (en) count <= (count == 4'd9) ? 4'd0 : count + 4'd1;
  end
`ifdef FORMAL
`ifndef NO_LOAD_ASSUMPTION
  always @* assume (!load || din <= 4'd9);
`endif
  always @* assert (count <= 4'd9);
`endif
endmodule
