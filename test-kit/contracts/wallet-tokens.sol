// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// Minimal ERC-20, ERC-721 and ERC-1155 tokens for the address index's tests: anyone may mint,
// burn (send to the zero address) and transfer what they hold. Events as the standards define.

contract TestToken20 {
    string public name = "Test Token";
    string public symbol = "TT";
    uint8 public decimals = 18;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);

    function mint(address to, uint256 value) external {
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        if (to != address(0)) balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

contract TestNft721 {
    string public name = "Test NFT";
    string public symbol = "TNFT";
    mapping(uint256 => address) public ownerOf;
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    function mint(address to, uint256 id) external {
        require(ownerOf[id] == address(0), "minted");
        ownerOf[id] = to;
        emit Transfer(address(0), to, id);
    }

    function transferFrom(address from, address to, uint256 id) external {
        require(ownerOf[id] == from && from == msg.sender, "not yours");
        ownerOf[id] = to;
        emit Transfer(from, to, id);
    }

    function tokenURI(uint256 id) external pure returns (string memory) {
        return string.concat("ipfs://nft/", toString(id));
    }

    function toString(uint256 value) internal pure returns (string memory) {
        if (value == 0) return "0";
        bytes memory digits = new bytes(78);
        uint256 at = 78;
        while (value > 0) {
            digits[--at] = bytes1(uint8(48 + (value % 10)));
            value /= 10;
        }
        bytes memory out = new bytes(78 - at);
        for (uint256 i = 0; i < out.length; i++) out[i] = digits[at + i];
        return string(out);
    }
}

contract TestMulti1155 {
    mapping(uint256 => mapping(address => uint256)) public balanceOf;
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);

    function mint(address to, uint256 id, uint256 value) external {
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, address(0), to, id, value);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata) external {
        require(from == msg.sender, "not yours");
        balanceOf[id][from] -= value;
        if (to != address(0)) balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, from, to, id, value);
    }

    function safeBatchTransferFrom(address from, address to, uint256[] calldata ids, uint256[] calldata values, bytes calldata) external {
        require(from == msg.sender, "not yours");
        for (uint256 i = 0; i < ids.length; i++) {
            balanceOf[ids[i]][from] -= values[i];
            if (to != address(0)) balanceOf[ids[i]][to] += values[i];
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
    }

    function uri(uint256) external pure returns (string memory) {
        return "ipfs://multi/{id}.json";
    }
}
